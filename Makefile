# The two commands a newcomer runs: `make demo` and `make test`. Both install what they need first.
PRESET_TEST ?= debug
PRESET_DEMO ?= release
JOBS ?= $(shell nproc)

.PHONY: setup build test demo bench format clean

setup:
	@bash scripts/setup

# `make demo` needs only the lakeqa binary; `make bench` builds everything (benchmark helpers too).
build: setup
	@cmake --preset $(PRESET_DEMO) >/dev/null
	@cmake --build build/$(PRESET_DEMO) -j $(JOBS) --target lakeqa

test: setup
	@cmake --preset $(PRESET_TEST) >/dev/null
	@cmake --build build/$(PRESET_TEST) -j $(JOBS)
	@# A fresh clone's setup could only unpack GloVe (converting needs lakeqa): convert it now, so the
	@# GloVe tests run instead of skipping.
	@[ -e .deps/glove/glove100.bin ] || LAKEQA_BIN=$(CURDIR)/build/$(PRESET_TEST)/lakeqa bash scripts/setup
	@cd build/$(PRESET_TEST) && ctest --output-on-failure -j $(JOBS) --timeout 600

demo: build
	@bash scripts/demo build/$(PRESET_DEMO)/lakeqa

bench: build
	@cmake --build build/$(PRESET_DEMO) -j $(JOBS)
	@bash bench/run_all.sh build/$(PRESET_DEMO)

# The same clang-format that scripts/check-format (the Format.ClangFormatClean test) uses.
CLANG_FORMAT ?= $(shell command -v clang-format-14 || command -v clang-format)
format:
	@find include src tests bench \( -name '*.h' -o -name '*.cc' \) -print0 | xargs -0 -n 16 -P $(JOBS) $(CLANG_FORMAT) -i

clean:
	@rm -rf build
