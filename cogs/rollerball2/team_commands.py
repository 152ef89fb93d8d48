"""What the team commands do (the cog in cog.py declares them): create, import, export, show,
rename, sign, the cards and the game card. Every refusal is a UserError (an ephemeral answer
saying what is wrong and how to fix it) raised before anything is stored."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord

from cogs.rollerball2.teams import (
    EXPERIENCE_LETTER,
    MAX_UPLOAD,
    colour_name,
    embed_colour,
    find_player,
    find_team,
    guild_of,
    new_seed,
    require_manager,
    team_embed,
)
from db import rollerball2 as store
from render.rollerball2 import render_card_sheets, render_fac, render_gamecard, render_player_card
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
from ui import UserError, quote

if TYPE_CHECKING:
    from bot import Ballcourt

CSV_HELP = (
    "A roster CSV has a header row `name,number,position,experience` and optionally "
    "`offense,defense` (ten results each, die face 0 first, e.g. "
    "`Bkr EVT GOAL GOAL PASS GOAL GOAL Att Bkr GOAL`); `/rollerball2 team export` writes one."
)
NAME_TAKEN = (
    "A team called {name} already plays in this server: choose another name "
    "(`/rollerball2 team show team:{name}` shows that one)."
)


def file_of(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def read_csv(attachment: discord.Attachment) -> str:
    """An uploaded CSV as text: refused over MAX_UPLOAD before a byte is read."""
    if attachment.size > MAX_UPLOAD:
        raise UserError(
            f"{quote(attachment.filename)} is {attachment.size / 1024:.0f} KB: a roster CSV may "
            f"be at most {MAX_UPLOAD // 1024} KB (40 players fit in a few KB). Nothing was saved."
        )
    if not attachment.filename.lower().endswith((".csv", ".txt")):
        raise UserError(
            f"{quote(attachment.filename)} is not a .csv file. {CSV_HELP} Nothing was saved."
        )
    data = await attachment.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(
            f'{quote(attachment.filename)} is not UTF-8 text: save it as "CSV UTF-8" and '
            "upload it again. Nothing was saved."
        ) from None


async def send_problems(interaction: discord.Interaction, error: RosterImportError) -> None:
    """Every problem of a CSV, with its line, ephemerally; a file when they outgrow a message."""
    lines = [f"• {problem}" for problem in error.problems]
    text = "\n".join(lines)
    count = len(error.problems)
    embed = discord.Embed(
        title=f"The roster was not imported: {count} problem{'s' if count != 1 else ''}",
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


async def create(
    bot: Ballcourt, interaction: discord.Interaction, name: str, colour: str, colour2: str
) -> None:
    guild_id = guild_of(interaction)
    name = clean_name(name, "The team name")
    if await store.team_by_name(bot.db, guild_id, name) is not None:
        raise UserError(NAME_TAKEN.format(name=name))
    seed = new_seed(bot)
    roster = generate_roster(seed, name)
    await _store_new(bot, interaction, roster, colour, colour2, seed, "founds")


async def _store_new(
    bot: Ballcourt,
    interaction: discord.Interaction,
    roster: Roster,
    colour: str,
    colour2: str,
    seed: str,
    verb: str,
) -> None:
    try:
        team = await store.create_team(
            bot.db,
            guild_id=guild_of(interaction),
            owner_id=interaction.user.id,
            roster=roster,
            colour=colour,
            colour2=colour2,
            seed=seed,
        )
    except store.TeamNameTaken:
        raise UserError(NAME_TAKEN.format(name=roster.team)) from None
    embed = team_embed(team)
    await interaction.response.send_message(
        f"{interaction.user.mention} {verb} **{team.name}** "
        f"({colour_name(team.colour)} and {colour_name(team.colour2)}). "
        "Set the line-up with `/rollerball2 team lineup`.",
        embed=embed,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def import_team(
    bot: Ballcourt,
    interaction: discord.Interaction,
    name: str,
    attachment: discord.Attachment,
    colour: str,
    colour2: str,
) -> None:
    guild_id = guild_of(interaction)
    name = clean_name(name, "The team name")
    text = await read_csv(attachment)
    if await store.team_by_name(bot.db, guild_id, name) is not None:
        raise UserError(NAME_TAKEN.format(name=name))
    seed = new_seed(bot)
    try:
        roster = import_roster(text, name, seed)
    except RosterImportError as error:
        await send_problems(interaction, error)
        return
    await _store_new(bot, interaction, roster, colour, colour2, seed, "imports")


async def export(bot: Ballcourt, interaction: discord.Interaction, name: str) -> None:
    team = await find_team(bot, interaction, name)
    await interaction.response.defer(thinking=True)
    sheets = await asyncio.to_thread(render_card_sheets, team.roster.players)
    slug = "".join(ch if ch.isalnum() else "-" for ch in team.name.lower()).strip("-") or "team"
    files = [file_of(roster_to_csv(team.roster).encode(), f"{slug}.csv")]
    files += [file_of(sheet, f"{slug}-cards-{i}.png") for i, sheet in enumerate(sheets, 1)]
    await interaction.followup.send(
        f"**{team.name}**: the roster as CSV (it imports back card for card with "
        f"`/rollerball2 team import`) and {len(sheets)} printable sheets of ten cards "
        "(US Letter at 200 dpi, like the workbook's perforated stock).",
        files=files,
    )


async def show(bot: Ballcourt, interaction: discord.Interaction, name: str) -> None:
    team = await find_team(bot, interaction, name)
    busy = await store.open_match_of(bot.db, team.id)
    content = f"{team.name} is playing match #{busy} now." if busy else None
    await interaction.response.send_message(
        content, embed=team_embed(team), allowed_mentions=discord.AllowedMentions.none()
    )


async def _change(
    bot: Ballcourt, interaction: discord.Interaction, team: store.Team, roster: Roster
) -> store.Team:
    try:
        return await store.update_team(bot.db, team, roster=roster)
    except store.StaleTeam:
        raise UserError(
            f"{team.name} changed while you did this (a match ended, or another change): "
            "nothing was saved. Try again."
        ) from None


async def rename(
    bot: Ballcourt, interaction: discord.Interaction, name: str, number: int, new_name: str
) -> None:
    team = await find_team(bot, interaction, name)
    require_manager(interaction, team)
    old = team.roster.card(number).name
    team = await _change(bot, interaction, team, rename_player(team.roster, number, new_name))
    await interaction.response.send_message(
        f"{team.name}: #{number} {old} is now **{team.roster.card(number).name}** (his card and "
        "his statistics stay his)."
    )


async def sign(
    bot: Ballcourt,
    interaction: discord.Interaction,
    name: str,
    position: str | None,
    count: int,
    attachment: discord.Attachment | None,
) -> None:
    team = await find_team(bot, interaction, name)
    require_manager(interaction, team)
    before = {card.number for card in team.roster.players}
    if attachment is not None:
        text = await read_csv(attachment)
        try:
            cards = parse_roster_csv(text, team.name, new_seed(bot), whole_team=False)
        except RosterImportError as error:
            await send_problems(interaction, error)
            return
        roster = sign_players(team.roster, cards)
    else:
        if position is None:
            raise UserError(
                "Say which position to sign (skater, biker or catcher), or attach a CSV of the "
                "players to sign."
            )
        places = open_places(team.roster)
        if count > places:
            raise UserError(
                f"{team.name} can sign {places} more player(s): a team holds 25 who can still "
                "play (the dead and the banned for life do not count). Nothing was signed."
            )
        roster = team.roster
        for _ in range(count):
            roster = sign_generated(roster, new_seed(bot), position)
    team = await _change(bot, interaction, team, roster)
    signed = [card for card in team.roster.players if card.number not in before]
    lines = [
        f"#{card.number} {card.name} ({card.position}, {EXPERIENCE_LETTER[card.experience]})"
        for card in signed
    ]
    await interaction.response.send_message(
        f"**{team.name}** signs {', '.join(lines)}. {open_places(team.roster)} place(s) left "
        "on the roster."
    )


async def card(bot: Ballcourt, interaction: discord.Interaction, text: str) -> None:
    team, number = await find_player(bot, interaction, text)
    player = team.roster.card(number)
    image = await asyncio.to_thread(render_player_card, player)
    embed = discord.Embed(
        title=f"#{player.number} {player.name}",
        description=f"{team.name} · {player.position} · {player.experience.upper()} · "
        f"{player_status(team.roster, number)}",
        colour=embed_colour(team),
    )
    embed.set_image(url="attachment://card.png")
    embed.set_footer(text="Rows 0-9 are the die's faces; OFFENSE left, DEFENSE right.")
    await interaction.response.send_message(embed=embed, file=file_of(image, "card.png"))


async def fac(interaction: discord.Interaction, number: int) -> None:
    content = load_content()
    image = await asyncio.to_thread(render_fac, content.fac(number))
    await interaction.response.send_message(
        f"Fast Action Card {number} of {len(content.facs)}: a card is read for one section "
        "only, the one the play calls for.",
        file=file_of(image, f"fac-{number}.png"),
    )


async def gamecard(interaction: discord.Interaction) -> None:
    image = await asyncio.to_thread(render_gamecard)
    await interaction.response.send_message(
        "The Game Card: the Action Matrix, the Random Player chart and the penalty lengths.",
        file=file_of(image, "gamecard.png"),
    )
