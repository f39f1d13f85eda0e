# SPDX-License-Identifier: GPL-2.0
#
# The one entry point. `make demo` and `make check` are the README's two
# commands; both install what they need (tools/deps.sh) first.
#
#   make            deps, vnpu.ko (with BTF), libnpuprof, tools, tests
#   make check      lint + build + host tests (also under ASan + UBSan) + a
#                   replay of the fuzz corpus + every in-VM suite; ends with
#                   "N passed, N failed"
#   make demo       a sample workload profiled in the VM, results in ./out/
#   make lint       checkpatch --strict, W=1 + sparse, -Werror, clang-format, cppcheck
#   make vm CMD="..."            run CMD in the dev VM with vnpu.ko loaded
#   make vm-shell                an interactive shell in the dev VM
#   make vm-test SUITES="name"   run only these in-VM suites (one boot)
#                KERNEL=debug    ... on the debug kernel (or both)
#   make install PREFIX=/usr/local DESTDIR=   library, headers, npuprof, man pages, Python package
#   make stress     the reliability suites with long counts, one VM boot
#                   (slub_debug, 2 vCPUs), a table of figures; SUITES= and
#                   KERNEL=debug as for vm-test (docs/reliability.md)
#   make bench      the benchmarks (host + one VM boot), a table of ratios
#   make bench-smoke  each benchmark for a second or two: do they complete?
#   make asan       library, CLI and host suites with ASan + UBSan in build/asan/
#   make fuzz FUZZ_S=60  each libFuzzer harness of tests/fuzz/ for FUZZ_S
#                   seconds (clang, ASan + UBSan; crashes in build/fuzz/artifacts/)
#   make check-msprof MSPROF_ANALYSIS=<dir>  msprof's own parser against our
#                   export, on the sample and the real-layout PROF folders
#                   (opt-in; skips with a note without MSPROF_ANALYSIS)

TOP := $(CURDIR)
PREFIX ?= /usr/local
DESTDIR ?=
BUILD := $(TOP)/build
KVER = $(shell $(TOP)/tools/kver.sh)
KDIR = /lib/modules/$(KVER)/build
VMLINUX = $(BUILD)/vm/vmlinux-$(KVER)
KSFT := $(BUILD)/ksrc/tools/testing/selftests

CC ?= gcc
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -I$(TOP)/uapi
V ?= 0
ifeq ($(V),1)
Q :=
else
Q := @
endif

export CC CFLAGS BUILD KSFT TOP Q

.PHONY: all deps build module module-debug lib tools tests examples python check lint demo vm vm-shell \
	vm-test stress clean install bench bench-smoke bench-build check-msprof asan fuzz fuzz-build

all: deps
	$(Q)$(MAKE) --no-print-directory build

deps:
	$(Q)$(TOP)/tools/deps.sh --quiet

build: module lib tests examples tools python

# vnpu.ko from the top-level Kbuild, then module BTF (pahole, with the
# guest's vmlinux as base: the headers package has none, so Kbuild skips it).
# Builds take a machine-wide lock: the machine has 2 cores, and two Kbuild
# runs in one tree would trip over each other.
LOCK := flock /tmp/vnpu-build.lock

module:
	$(Q)mkdir -p $(BUILD)
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C $(KDIR) M=$(TOP) W=1 modules \
		$(if $(filter 1,$(V)),,>$(BUILD)/module.log 2>&1) || \
		{ cat $(BUILD)/module.log; exit 1; }
	$(Q)if grep -E 'warning:|error:' $(BUILD)/module.log 2>/dev/null; then \
		echo "module: the build has warnings (W=1 must be clean)"; exit 1; fi
	$(Q)if ! readelf -S $(TOP)/vnpu.ko | grep -q '\.BTF'; then \
		pahole -J --btf_gen_floats -j --lang_exclude=rust \
			--btf_base $(VMLINUX) $(TOP)/vnpu.ko; fi

lib:
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C libnpuprof

# The module for the debug kernel (tools/vm/debug-kernel.sh), built in a
# mirror of the sources (symlinks) so its objects do not mix with the
# stock build's.
DEBUG_DIR := $(BUILD)/debug-kernel
module-debug:
	$(Q)$(TOP)/tools/vm/debug-kernel.sh >/dev/null
	$(Q)rm -rf $(DEBUG_DIR)/kmod && mkdir -p $(DEBUG_DIR)/kmod/kmod $(DEBUG_DIR)/kmod/uapi
	$(Q)ln -s $(TOP)/Kbuild $(DEBUG_DIR)/kmod/Kbuild
	$(Q)for f in $(TOP)/kmod/*.[ch] $(TOP)/uapi/*.h; do \
		ln -s $$f $(DEBUG_DIR)/kmod/$$(basename $$(dirname $$f))/; done
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C $(DEBUG_DIR)/linux M=$(DEBUG_DIR)/kmod \
		W=1 modules >$(DEBUG_DIR)/module.log 2>&1 || { cat $(DEBUG_DIR)/module.log; exit 1; }
	$(Q)if grep -E 'warning:|error:' $(DEBUG_DIR)/module.log; then \
		echo "module-debug: the build has warnings"; exit 1; fi

tests: lib
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C tests

examples: lib
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C examples

# the npuprof Python package (python/), in build/python/npuprof
python: lib
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C python

tools: lib module
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C tools

check: deps
	$(Q)$(TOP)/tools/check.sh

lint: deps
	$(Q)$(TOP)/tools/lint.sh

demo: all
	$(Q)$(TOP)/tools/demo.sh

vm: all
	$(Q)$(TOP)/tools/vm/run $(VMFLAGS) -- $(CMD)

vm-shell: all
	$(Q)$(TOP)/tools/vm/run $(VMFLAGS) --interactive

vm-test: all
	$(Q)$(TOP)/tools/check.sh --vm-only --kernel $(or $(KERNEL),stock) $(SUITES)

stress: all
	$(Q)$(TOP)/tools/stress.sh --kernel $(or $(KERNEL),stock) $(SUITES)

# bench/: built only for these targets; bench/run.sh runs them (docs/performance.md)
bench-build: lib module
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C bench

bench: all
	$(Q)$(MAKE) --no-print-directory bench-build
	$(Q)$(TOP)/bench/run.sh

bench-smoke: all
	$(Q)$(MAKE) --no-print-directory bench-build
	$(Q)$(TOP)/bench/run.sh --smoke

check-msprof: lib tools
	$(Q)$(TOP)/tools/check-msprof.sh

# The library, the npuprof CLI and the host suites again with AddressSanitizer
# and UndefinedBehaviorSanitizer, in build/asan/ so that no object mixes with
# the normal build's; -fno-sanitize-recover makes every UBSan report fatal, as
# ASan's are. make check runs these suites (tools/check.sh). -Wrestrict gives
# false positives on member-to-member copies under ASan (as in tests/Makefile).
ASAN_BUILD := $(BUILD)/asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_MAKE = $(LOCK) $(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) \
	CFLAGS="-O1 -g $(ASAN_FLAGS) -std=gnu11 -Wall -Wextra -Werror -Wno-restrict \
	-I$(TOP)/uapi" LDFLAGS="$(ASAN_FLAGS)"
asan: deps
	$(Q)$(ASAN_MAKE) -C libnpuprof
	$(Q)$(ASAN_MAKE) -C tests host
	$(Q)$(ASAN_MAKE) -C tools/npuprof

# libFuzzer harnesses of the export's readers, built with clang into
# build/fuzz/ (tests/fuzz/Makefile); make fuzz runs each FUZZ_S seconds
FUZZ_S ?= 60
fuzz-build: deps
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C tests/fuzz

fuzz: fuzz-build
	$(Q)$(TOP)/tools/fuzz.sh $(FUZZ_S)

# the library, its headers and pkg-config file, the npuprof CLI (linked
# again for $(PREFIX)/lib) and the man pages npuprof(1), libnpuprof(3)
install: lib
	$(Q)$(MAKE) --no-print-directory -C libnpuprof install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C python install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C tools/npuprof install PREFIX=$(PREFIX) \
		DESTDIR=$(DESTDIR)
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 0644 man/npuprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 man/libnpuprof.3 $(DESTDIR)$(PREFIX)/share/man/man3/

clean:
	$(Q)$(MAKE) --no-print-directory -C $(KDIR) M=$(TOP) clean >/dev/null 2>&1 || true
	$(Q)rm -rf $(BUILD)/tests $(BUILD)/lib $(BUILD)/tools $(BUILD)/results $(BUILD)/asan $(BUILD)/fuzz \
		$(BUILD)/vm/results $(BUILD)/*.log
