# The README's two commands, for those who prefer make.
.PHONY: run test build install-deps
run:
	scripts/run.sh
test:
	scripts/test.sh
build:
	scripts/build.sh
install-deps:
	scripts/install-deps.sh
