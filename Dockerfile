# Ballcourt bot image: slim Python, non-root user, database on a volume, token from the environment.
#   docker build -t ballcourt .
#   docker run -d --name ballcourt -e DISCORD_TOKEN=... -v ballcourt-data:/data ballcourt
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/ballcourt.db

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY bot.py config.py ./
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
VOLUME ["/data"]

CMD ["python", "bot.py"]
