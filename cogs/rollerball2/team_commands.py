"""`/rollerball2 team ...` (create, import, export, show, rename, sign, lineup) and the cards
(`/rollerball2 card`, `fac`, `gamecard`), declared where they are implemented. Every refusal is
a UserError (an ephemeral answer saying what is wrong and how to fix it) raised before anything
is stored."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

from cogs import bot_of
from cogs.rollerball2.lineup import editor_text, editor_view
from cogs.rollerball2.teams import (
    EXPERIENCE_LETTER,
    NO_MENTIONS,
    POSITION_CHOICES,
    Name,
    PlayerArg,
    TeamArg,
    colour_autocomplete,
    colour_name,
    embed_colour,
    guild_of,
    names_as_text,
    new_seed,
    parse_colour,
    require_manager,
    team_embed,
)
from db import rollerball2 as store
from render.rollerball2 import (
    render_card_sheets,
    render_fac_phone,
    render_gamecard_pages,
    render_player_card,
)
from rules.rollerball2 import (
    Roster,
    RosterImportError,
    clean_name,
    generate_roster,
    import_roster,
    load_content,
    open_places,
    parse_roster_csv,
    player_status,
    rename_player,
    roster_to_csv,
    sign_generated,
    sign_players,
)
from ui import UserError, shown
from ui.formats import plural
from ui.uploads import read_upload

Colour = app_commands.Range[str, 1, 20]

CSV_HELP = (
    "A roster CSV has a header row `name,number,position,experience` and optionally "
    "`offense,defense` (ten results each, die face 0 first, e.g. "
    "`Bkr EVT GOAL GOAL PASS GOAL GOAL Att Bkr GOAL`), separated by commas or semicolons; "
    "`/rollerball2 team export` writes one."
)
NAME_TAKEN = (
    "A team called {name} already plays in this server: choose another name "
    "(`/rollerball2 team show` shows that one)."
)


def file_of(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def send_problems(interaction: discord.Interaction, error: RosterImportError) -> None:
    """Every problem of a CSV, with its line, ephemerally; a file when they outgrow a message."""
    lines = [f"• {shown(problem)}" for problem in error.problems]
    text = "\n".join(lines)
    count = len(error.problems)
    embed = discord.Embed(
        title=f"The roster was not imported: {plural(count):problem}",
        colour=discord.Colour(0xD55E00),
    )
    files = []
    if len(text) > 3800:
        embed.description = text[:3700].rsplit("\n", 1)[0] + "\n… every problem is in the file."
        files.append(file_of(text.encode(), "problems.txt"))
    else:
        embed.description = text
    embed.add_field(name="How to fix it", value=f"{CSV_HELP} Nothing was saved.")
    await interaction.response.send_message(embed=embed, files=files, ephemeral=True)


async def _store_new(
    interaction: discord.Interaction,
    roster: Roster,
    colour: str,
    colour2: str,
    seed: str,
    verb: str,
) -> None:
    try:
        team = await store.create_team(
            bot_of(interaction).db,
            guild_id=guild_of(interaction),
            owner_id=interaction.user.id,
            roster=roster,
            colour=colour,
            colour2=colour2,
            seed=seed,
        )
    except store.TeamNameTaken:
        raise UserError(NAME_TAKEN.format(name=shown(roster.team))) from None
    embed = team_embed(team)
    await interaction.response.send_message(
        f"{interaction.user.mention} {verb} **{shown(team.name)}** "
        f"({colour_name(team.colour)} and {colour_name(team.colour2)}). "
        "Set the line-up with `/rollerball2 team lineup`.",
        embed=embed,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def _change(interaction: discord.Interaction, team: store.Team, roster: Roster) -> store.Team:
    try:
        return await store.update_team(bot_of(interaction).db, team, roster=roster)
    except store.StaleTeam:
        raise UserError(
            f"{shown(team.name)} changed while you did this (a match ended, or another change): "
            "nothing was saved. Try again."
        ) from None


class TeamCommands(app_commands.Group, name="team", description="Teams and rosters"):
    """`/rollerball2 team ...`."""

    @app_commands.command(name="create", description="Found a team: 25 players generated")
    @app_commands.describe(name="Team name", colour="Main colour", colour2="Second colour")
    @app_commands.autocomplete(colour=colour_autocomplete, colour2=colour_autocomplete)
    async def create(
        self,
        interaction: discord.Interaction,
        name: Name,
        colour: Colour | None = None,
        colour2: Colour | None = None,
    ) -> None:
        bot = bot_of(interaction)
        guild_id = guild_of(interaction)
        main, second = parse_colour(colour, "#0072b2"), parse_colour(colour2, "#f5f5f5")
        name = clean_name(name, "The team name")
        if await store.team_by_name(bot.db, guild_id, name) is not None:
            raise UserError(NAME_TAKEN.format(name=shown(name)))
        seed = new_seed(bot)
        roster = generate_roster(seed, name)
        await _store_new(interaction, roster, main, second, seed, "founds")

    @app_commands.command(name="import", description="Found a team from a roster CSV")
    @app_commands.describe(
        name="Team name",
        file="CSV: name,number,position,experience[,offense,defense]; at most 100 KB",
        colour="Main colour",
        colour2="Second colour",
    )
    @app_commands.autocomplete(colour=colour_autocomplete, colour2=colour_autocomplete)
    async def import_(
        self,
        interaction: discord.Interaction,
        name: Name,
        file: discord.Attachment,
        colour: Colour | None = None,
        colour2: Colour | None = None,
    ) -> None:
        bot = bot_of(interaction)
        guild_id = guild_of(interaction)
        main, second = parse_colour(colour, "#d55e00"), parse_colour(colour2, "#f5f5f5")
        name = clean_name(name, "The team name")
        text = await read_upload(file, what="a roster CSV", suffixes=(".csv", ".txt"))
        if await store.team_by_name(bot.db, guild_id, name) is not None:
            raise UserError(NAME_TAKEN.format(name=shown(name)))
        seed = new_seed(bot)
        try:
            roster = import_roster(text, name, seed)
        except RosterImportError as error:
            await send_problems(interaction, error)
            return
        await _store_new(interaction, roster, main, second, seed, "imports")

    @app_commands.command(name="export", description="A team as CSV and printable card sheets")
    async def export(self, interaction: discord.Interaction, team: TeamArg) -> None:
        await interaction.response.defer(thinking=True)
        sheets = await asyncio.to_thread(render_card_sheets, team.roster.players)
        slug = "".join(ch if ch.isalnum() else "-" for ch in team.name.lower()).strip("-")
        slug = slug or "team"
        files = [file_of(roster_to_csv(team.roster).encode(), f"{slug}.csv")]
        files += [file_of(sheet, f"{slug}-cards-{i}.png") for i, sheet in enumerate(sheets, 1)]
        await interaction.followup.send(
            f"**{shown(team.name)}**: the roster as CSV (it imports back card for card with "
            f"`/rollerball2 team import`) and {len(sheets)} printable sheets of ten cards "
            "(US Letter at 200 dpi, like the workbook's perforated stock).",
            files=files,
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(
        name="show", description="A team's roster: who is fit, injured, banned, dead"
    )
    async def show(self, interaction: discord.Interaction, team: TeamArg) -> None:
        bot = bot_of(interaction)
        busy = await store.open_match_of(bot.db, team.id)
        content = f"{shown(team.name)} is playing match #{busy} now." if busy else None
        await interaction.response.send_message(
            content, embed=team_embed(team), allowed_mentions=NO_MENTIONS
        )

    @app_commands.command(name="rename", description="Rename a player")
    @app_commands.describe(number="His uniform number", name="His new name")
    async def rename(
        self,
        interaction: discord.Interaction,
        team: TeamArg,
        number: app_commands.Range[int, 0, 99],
        name: Name,
    ) -> None:
        require_manager(interaction, team)
        with names_as_text():
            old = team.roster.card(number).name
            renamed = rename_player(team.roster, number, name)
        team = await _change(interaction, team, renamed)
        await interaction.response.send_message(
            f"{shown(team.name)}: #{number} {shown(old)} is now "
            f"**{shown(team.roster.card(number).name)}** (his card and his statistics stay his).",
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="sign", description="Sign players, up to 25 who can play")
    @app_commands.describe(
        position="Generate players of this position",
        count="How many to generate (1)",
        file="Or a CSV of the players to sign",
    )
    @app_commands.choices(position=POSITION_CHOICES)
    async def sign(
        self,
        interaction: discord.Interaction,
        team: TeamArg,
        position: app_commands.Choice[str] | None = None,
        count: app_commands.Range[int, 1, 25] = 1,
        file: discord.Attachment | None = None,
    ) -> None:
        bot = bot_of(interaction)
        require_manager(interaction, team)
        before = {card.number for card in team.roster.players}
        if file is not None:
            text = await read_upload(file, what="a roster CSV", suffixes=(".csv", ".txt"))
            try:
                cards = parse_roster_csv(text, team.name, new_seed(bot), whole_team=False)
            except RosterImportError as error:
                await send_problems(interaction, error)
                return
            with names_as_text():
                roster = sign_players(team.roster, cards)
        else:
            if position is None:
                raise UserError(
                    "Say which position to sign (skater, biker or catcher), or attach a CSV of "
                    "the players to sign."
                )
            places = open_places(team.roster)
            if count > places:
                raise UserError(
                    f"{shown(team.name)} can sign {places} more player(s): a team holds 25 who "
                    "can still play (the dead and the banned for life do not count). Nothing "
                    "was signed."
                )
            roster = team.roster
            with names_as_text():
                for _ in range(count):
                    roster = sign_generated(roster, new_seed(bot), position.value)
        team = await _change(interaction, team, roster)
        signed = [card for card in team.roster.players if card.number not in before]
        lines = [
            f"#{card.number} {shown(card.name)} ({card.position}, "
            f"{EXPERIENCE_LETTER[card.experience]})"
            for card in signed
        ]
        await interaction.response.send_message(
            f"**{shown(team.name)}** signs {', '.join(lines)}. {open_places(team.roster)} "
            "place(s) left on the roster.",
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(
        name="lineup", description="Set your line-up, slot by slot (only you see it)"
    )
    async def lineup(self, interaction: discord.Interaction, team: TeamArg) -> None:
        require_manager(interaction, team)
        await interaction.response.send_message(
            editor_text(team), view=editor_view(team), ephemeral=True
        )


# ---- the cards: top-level commands of /rollerball2 -------------------------------------------


@app_commands.command(name="card", description="A player's card")
@app_commands.describe(player="Start typing a name")
async def card(interaction: discord.Interaction, player: PlayerArg) -> None:
    team, number = player
    chosen = team.roster.card(number)
    image = await asyncio.to_thread(render_player_card, chosen)
    embed = discord.Embed(
        title=f"#{chosen.number} {shown(chosen.name)}",
        description=f"{shown(team.name)} · {chosen.position} · {chosen.experience.upper()} · "
        f"{player_status(team.roster, number)}",
        colour=embed_colour(team),
    )
    embed.set_image(url="attachment://card.png")
    embed.set_footer(text="Rows 0-9 are the die's faces; OFFENSE left, DEFENSE right.")
    await interaction.response.send_message(
        embed=embed, file=file_of(image, "card.png"), allowed_mentions=NO_MENTIONS
    )


@app_commands.command(name="fac", description="A Fast Action Card")
async def fac(interaction: discord.Interaction, number: app_commands.Range[int, 1, 60]) -> None:
    content = load_content()
    image = await asyncio.to_thread(render_fac_phone, content.fac(number))
    await interaction.response.send_message(
        f"Fast Action Card {number} of {len(content.facs)}: a card is read for one section "
        "only, the one the play calls for.",
        file=file_of(image, f"fac-{number}.png"),
    )


@app_commands.command(name="gamecard", description="Action Matrix, Random Player chart, penalties")
async def gamecard(interaction: discord.Interaction) -> None:
    pages = await asyncio.to_thread(render_gamecard_pages)
    await interaction.response.send_message(
        "The Game Card: the Action Matrix, the Random Player chart and the penalty lengths.",
        files=[file_of(page, f"gamecard-{index}.png") for index, page in enumerate(pages, start=1)],
    )


CARD_COMMANDS = (card, fac, gamecard)
