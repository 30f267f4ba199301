# Sourced by the scripts that run an instrumented build: every instrumented process (the tests,
# and the workers and dev tenants they start, which inherit the variable) writes its line counts
# to a file of its own in .build/profiles (%p: a worker killed mid-write spoils only its own).
# scripts/coverage-report reads them. Run from the repository root.
profile_dir="$PWD/.build/profiles"
export LLVM_PROFILE_FILE="$profile_dir/%p.profraw"
