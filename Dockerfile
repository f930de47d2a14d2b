# GridBridge emulator image: a static binary on a distroless base, non-root.
# Build: docker build -t gridbridge .
# Run:   docker run --rm -p 127.0.0.1:4080:4080 -p 127.0.0.1:4443:4443 gridbridge
# (127.0.0.1: the emulator has no authentication; publish it on loopback
# unless other machines must reach it.)
#
# Builds with the classic builder too (no BuildKit-only features). Where no
# registry answers, scripts/docker-base-images makes local stand-ins for the
# two base images first.
#
# The builder is pinned to the Go release go.mod names: the official image
# sets GOTOOLCHAIN=local, so an older one would refuse the module.
FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/emulator ./cmd/emulator

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/emulator /emulator
# Listen on every interface inside the container; links in answers (topic
# endpoints, /_emulator/info) then name https://localhost:4443, right for a
# client on the host when 4443 is published on the same port; set
# GRIDBRIDGE_ADVERTISE_TLS_URL when clients use another host or port. The
# CA goes where a mounted volume or `docker cp` can reach it (also at GET
# /_emulator/ca.pem); with --read-only, add --tmpfs /tmp.
#
# Requests must name an IP, localhost or an allowed host (a guard against
# DNS rebinding). "gridbridge" is the usual service name on a compose or
# Docker network and host.docker.internal the name containers give the
# host; the certificate names both. Set GRIDBRIDGE_TLS_HOST (certificate
# and allowed) or GRIDBRIDGE_ALLOWED_HOST to add the names your
# containers use.
ENV GRIDBRIDGE_ADDR=0.0.0.0:4080 \
    GRIDBRIDGE_TLS_ADDR=0.0.0.0:4443 \
    GRIDBRIDGE_CA_FILE=/tmp/gridbridge-ca.pem \
    GRIDBRIDGE_TLS_HOST="gridbridge host.docker.internal"
EXPOSE 4080 4443
USER nonroot:nonroot
# The probe asks GET /_emulator/health at GRIDBRIDGE_ADDR, or at the --addr
# given to the container's command line.
HEALTHCHECK --interval=2s --timeout=2s --start-period=1s --retries=5 CMD ["/emulator", "--healthcheck"]
ENTRYPOINT ["/emulator"]
