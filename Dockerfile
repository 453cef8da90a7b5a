# syntax=docker/dockerfile:1
# Recents: a static-stdlib `recents` binary on Debian slim, running as a numeric non-root user.
#   docker build -t recents .
#   docker run -p 8080:8080 -v recents-data:/data recents
# Configure with RECENTS_* variables (see `recents serve --help`); prefer RECENTS_PORT over a
# `--port` in CMD so the HEALTHCHECK, which reads the same variables, probes the right port.
# A bind-mounted host folder for /data must be writable by uid 10001 (named volumes are
# initialised with the right owner automatically).

# ---- build -----------------------------------------------------------------------------------
# Pinned to the toolchain line the package is written for (swift-tools-version 6, Swift 6.3).
FROM swift:6.3-bookworm AS build

# The CSQLite, CCrypto, CLibPQ, CZlib and CBrotli* system-library targets find sqlite3, libcrypto,
# libpq, zlib and libbrotli through pkg-config, hence the -dev packages.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev libssl-dev libpq-dev zlib1g-dev libbrotli-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The whole context as filtered by .dockerignore: works whether or not Migrations/ or Plugins/
# exist, which a list of COPY lines could not.
COPY . .

# --static-swift-stdlib: the runtime image needs no Swift runtime, only glibc, libstdc++ (which
# apt already pulls into debian slim), libsqlite3, libcrypto (libssl3), zlib and libbrotli. The build
# cache mount keeps rebuilds fast.
RUN --mount=type=cache,target=/src/.build \
    swift build -c release --product recents --static-swift-stdlib \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/recents" /out/recents

# ---- runtime ---------------------------------------------------------------------------------
FROM debian:bookworm-slim

# Only the shared libraries the binary links (libsqlite3; libcrypto, from libssl3; libz, from zlib1g;
# libbrotlienc/dec/common, from libbrotli1) and libpq5, which it loads when RECENTS_DB is a
# postgresql:// URI; no curl: `recents healthcheck` speaks HTTP itself.
# /data is created here, owned by the service user, before VOLUME: a fresh named volume is
# initialised from it, so SQLite can create the database and its -wal/-shm files beside it.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 libssl3 libpq5 zlib1g libbrotli1 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 recents \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin recents \
    && install -d -o 10001 -g 10001 -m 0750 /data

COPY --from=build /out/recents /usr/local/bin/recents

# Numeric, so runtimes enforcing runAsNonRoot can verify it without reading /etc/passwd.
USER 10001:10001
WORKDIR /data
# The server binds 0.0.0.0 here, so it refuses to start without access control: set
# RECENTS_AUTH_SECRET (>= 32 bytes, e.g. `openssl rand -base64 32`) or mount a file and set
# RECENTS_AUTH_SECRET_FILE; only behind something that checks access itself, RECENTS_AUTH=none.
ENV RECENTS_DB=/data/recents.sqlite \
    RECENTS_HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 8080

# healthcheck maps 0.0.0.0 to 127.0.0.1 and gives up after its own 5 s, before Docker's 10 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=10s --retries=3 \
    CMD ["recents", "healthcheck"]

# Exec form: the server is PID 1 and receives SIGTERM from `docker stop` directly; it installs
# its own SIGTERM/SIGINT handlers (PID 1 gets no default ones) and shuts down gracefully.
ENTRYPOINT ["recents"]
CMD ["serve", "--host", "0.0.0.0"]
