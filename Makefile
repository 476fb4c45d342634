# The README's commands. Only deps, demo, test and fuzz install packages
# (missing Debian packages, through scripts/deps.sh); build and cmake never do.
#   make build    configure and build build/ (RelWithDebInfo; warnings are not errors)
#   make deps     install the missing Debian packages (scripts/deps.sh)
#   make demo     deps, build, then run the main job on the bundled demo units
#   make test     deps, then everything CI checks, all with warnings as errors:
#                   build/        RelWithDebInfo, every test (ctest)
#                   build-asan/   Debug under ASan + UBSan, every test
#                   build-release/, build-minsize/  Release, MinSizeRel: build only
#                   build-clang/  clang RelWithDebInfo, build and unit tests
#                   build-fuzz/   clang libFuzzer build: seed coverage test, then
#                                 each fuzz target FUZZ_TEST_SECONDS (20) on one job
#                 (the clang builds are skipped, with a note, where clang is missing)
#   make fuzz     libFuzzer build with clang into build-fuzz/, then each target runs
#                 FUZZ_SECONDS (60) with nproc jobs; inputs that add coverage are
#                 merged into tests/fuzz/corpus/NAME/ (commit them)
#   make install  install build/ (CMAKE_INSTALL_PREFIX, /usr/local unless set)
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
WERROR ?= OFF
FUZZ_SECONDS ?= 60
FUZZ_TEST_SECONDS ?= 20
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
HAVE_CLANG = $(shell command -v clang >/dev/null 2>&1 && echo yes)

.PHONY: all deps build demo test test-normal test-asan test-types test-clang test-fuzz \
        fuzz fuzz-build install clean

all: build

deps:
	@sh scripts/deps.sh

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMK_WERROR=$(WERROR) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

demo: deps
	@$(MAKE) --no-print-directory build
	@sh scripts/demo.sh $(BUILD)

test: deps
	@$(MAKE) --no-print-directory test-normal test-asan test-types test-clang test-fuzz

test-normal:
	@$(MAKE) --no-print-directory build WERROR=ON
	-@sh scripts/js-deps.sh
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The reduced builds (build_*) and the install test run in build/ already.
test-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DMK_WERROR=ON -DMK_BUILD_BENCH=ON \
	      -DCMAKE_C_FLAGS="$(SAN_FLAGS)" -DCMAKE_CXX_FLAGS="$(SAN_FLAGS)" \
	      -DCMAKE_EXE_LINKER_FLAGS="$(SAN_FLAGS)" -DCMAKE_SHARED_LINKER_FLAGS="$(SAN_FLAGS)" >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    ctest --output-on-failure -j $(JOBS) -E '^(install_consumer|build_.*)$$'

# Every optimization level must build warning-free (gcc's -O2/-Os warnings
# differ from -O0's): build only.
test-types:
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DMK_WERROR=ON >/dev/null
	cmake --build build-release -j $(JOBS)
	cmake -S . -B build-minsize -DCMAKE_BUILD_TYPE=MinSizeRel -DMK_WERROR=ON >/dev/null
	cmake --build build-minsize -j $(JOBS)

test-clang:
ifeq ($(HAVE_CLANG),yes)
	CC=clang CXX=clang++ cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	      -DMK_WERROR=ON >/dev/null
	cmake --build build-clang -j $(JOBS)
	cd build-clang && ctest --output-on-failure -j $(JOBS) -R '^(test_|symbols|fuzz_|example_)'
else
	@echo "test-clang: clang not installed: skipped"
endif

fuzz-build:
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	      -DMK_WERROR=ON -DMK_LIBFUZZER=ON -DMK_BUILD_BENCH=OFF -DMK_BUILD_EXAMPLES=OFF >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_all

test-fuzz:
ifeq ($(HAVE_CLANG),yes)
	@$(MAKE) --no-print-directory fuzz-build
	cd $(FUZZ_BUILD) && ctest --output-on-failure -R '_coverage$$'
	sh scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_TEST_SECONDS) 1 0
else
	@echo "test-fuzz: clang not installed: skipped"
endif

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	sh scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(JOBS) 1

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) build-release build-minsize build-clang out
