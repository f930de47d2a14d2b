# GridBridge emulator image: a static binary on a distroless base, non-root.
# Build: docker build -t gridbridge .
# Run:   docker run --rm -p 4080:4080 -p 4443:4443 gridbridge
FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/emulator ./cmd/emulator

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/emulator /emulator
# Listen on every interface inside the container; the CA goes where a
# mounted volume or `docker cp` can reach it (also at GET /_emulator/ca.pem).
ENV GRIDBRIDGE_ADDR=0.0.0.0:4080 \
    GRIDBRIDGE_TLS_ADDR=0.0.0.0:4443 \
    GRIDBRIDGE_CA_FILE=/tmp/gridbridge-ca.pem \
    GRIDBRIDGE_ALLOWED_HOST="gridbridge host.docker.internal"
# Requests must name an IP, localhost or an allowed host (a guard against DNS
# rebinding): "gridbridge" is the usual service name on a compose or Docker
# network; set GRIDBRIDGE_ALLOWED_HOST to the names your containers use.
EXPOSE 4080 4443
USER nonroot:nonroot
HEALTHCHECK --interval=2s --timeout=2s --start-period=1s --retries=5 CMD ["/emulator", "--healthcheck"]
ENTRYPOINT ["/emulator"]
