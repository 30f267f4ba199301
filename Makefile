# The README's commands. Each installs what it needs on a fresh Debian 12 with Swift.
.PHONY: run test unit bench build fuzz soak deb coverage sanitize cluster chaos

run:
	scripts/run

test:
	scripts/test

# The socket-free suites alone (no nginx, worker, Redis or browser): seconds, for the edit-test loop.
# Built as make test builds (instrumented for coverage), so switching between them rebuilds nothing.
unit:
	swift build --build-tests --enable-code-coverage
	bash -c 'source scripts/profiles.sh && swift test --skip-build --skip IntegrationTests --skip SharedStoreTests --skip RedisOutageTests'

bench:
	scripts/bench

build:
	scripts/ensure-deps run
	swift build -c release --static-swift-stdlib

fuzz:
	scripts/fuzz

soak:
	scripts/soak

deb:
	scripts/deb

# Every suite but the package's with AddressSanitizer, in the tests and in the programs they start.
sanitize:
	scripts/sanitize

# make test's instrumented run and coverage table alone (COVERAGE_FILTER narrows it).
coverage:
	scripts/coverage

# Several hosts in network namespaces (root): two application hosts behind a front nginx, Redis
# with a replica and three sentinels. `cluster` runs until Ctrl-C; `chaos` runs faults under load
# and prints the figures.
cluster:
	scripts/ensure-deps cluster
	scripts/cluster up

chaos:
	scripts/ensure-deps cluster
	scripts/cluster chaos
