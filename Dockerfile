# Ballcourt bot image: slim Python, non-root user, database on a volume, token from the
# environment (docs/operations.md).
#   docker build -t ballcourt .
#   docker run -d --name ballcourt -e DISCORD_TOKEN=... -v ballcourt-data:/data ballcourt
# The base image is pinned to the Python the suite runs on; the indirect dependencies to the
# versions it was tested with (constraints.txt).
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/ballcourt.db \
    SANDBOX_DATA=/data/sandbox \
    HEALTH_FILE=/tmp/ballcourt-health

# tini is PID 1: it passes SIGTERM (docker stop) to the bot from the first instant, which PID 1
# itself would ignore until the bot installed its handler, and reaps the bot's child processes.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini=0.19.0-1+b3 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt constraints.txt ./
RUN pip install --no-cache-dir -r requirements.txt -c constraints.txt

# The app folder stays root's and read-only to the bot; everything it writes goes to /data.
COPY bot.py config.py healthcheck.py ./
COPY cogs ./cogs
COPY host ./host
COPY ui ./ui
COPY rules ./rules
COPY render ./render
COPY db ./db
COPY data ./data
COPY docs ./docs
COPY fakediscord ./fakediscord

RUN useradd --system --uid 10001 --no-create-home ballcourt \
    && mkdir -p /data && chown ballcourt /data
USER ballcourt
# No VOLUME line: with SQLite mount one at /data (-v ballcourt-data:/data); with PostgreSQL
# (docker-compose.yml) the bot keeps nothing there, and a VOLUME line would still make an
# anonymous volume for every container.

# Healthy while the bot is connected to Discord and its database answers (bot.py touches
# HEALTH_FILE every 10 s then).
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "healthcheck.py"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["python", "bot.py"]
