# The Panda Royale bot. Build: docker build -t panda-royale .
# Run:   docker run -e DISCORD_TOKEN=... -v panda-data:/data panda-royale
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/panda_royale.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY storage ./storage
RUN pip install . \
    && useradd --create-home --uid 10001 panda \
    && mkdir -p /data && chown panda /data

USER panda
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
