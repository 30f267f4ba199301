# The README's commands. Each installs what it needs on a fresh Debian 12 with Swift.
.PHONY: run test bench build fuzz soak deb

run:
	scripts/run

test:
	scripts/test

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
