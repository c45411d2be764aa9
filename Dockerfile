# The Panda Royale bot. Build: docker build -t panda-royale .
# Run:   docker run -e DISCORD_TOKEN=... -v panda-data:/data panda-royale
# Invite link: docker run --rm -e DISCORD_TOKEN=... panda-royale python -m bot invite

# Build stage: a C compiler, so that the wheel holds the rules engines compiled by mypyc
# (setup.py). Only the wheel leaves this stage.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY ui ./ui
COPY pictures ./pictures
COPY storage ./storage
RUN pip wheel --no-deps --wheel-dir /wheels .

# The image: the same Python, no compiler.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/panda_royale.db \
    HEALTH_FILE=/tmp/panda-royale.health

WORKDIR /app
# Fonts for names in every script on the pictures (Noto: Latin, Greek, Cyrillic, Arabic, Hebrew,
# CJK, colour emoji) and FriBiDi, which Pillow's libraqm uses for right-to-left text.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-core fonts-noto-cjk \
       fonts-noto-color-emoji libfribidi0 \
    && rm -rf /var/lib/apt/lists/*
# Dependencies first, pinned with hashes (requirements.lock), so code changes reuse this layer.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock
# The bot from the build stage's wheel; the build fails if its rules are not compiled.
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl \
    && python -c "import bot.rules, sys; sys.exit(not bot.rules.compiled())" \
    && rm -rf /tmp/wheels \
    && useradd --create-home --uid 10001 panda \
    && mkdir -p /data && chown panda /data

USER panda
VOLUME ["/data"]
# The bot rewrites HEALTH_FILE every 30 s once connected to Discord; stale after 90 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot"]
