# SPDX-License-Identifier: GPL-2.0
#
# The one entry point. `make demo` and `make check` are the README's two
# commands; both install what they need (tools/deps.sh) first.
#
#   make            deps, vnpu.ko (with BTF), libnpuprof, tools, tests
#   make check      lint + build + host tests + every in-VM suite; ends with
#                   "N passed, N failed"
#   make demo       a sample workload profiled in the VM, results in ./out/
#   make lint       checkpatch --strict, W=1 + sparse, -Werror, clang-format, cppcheck
#   make vm CMD="..."            run CMD in the dev VM with vnpu.ko loaded
#   make vm-shell                an interactive shell in the dev VM
#   make vm-test SUITES="name"   run only these in-VM suites (one boot)
#   make install PREFIX=/usr/local DESTDIR=

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

.PHONY: all deps build module lib tools tests examples check lint demo vm vm-shell \
	vm-test clean install bench stress

all: deps
	$(Q)$(MAKE) --no-print-directory build

deps:
	$(Q)$(TOP)/tools/deps.sh --quiet

build: module lib tests examples

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

tests: lib
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C tests

examples: lib
	$(Q)$(LOCK) $(MAKE) --no-print-directory -C examples

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
	$(Q)$(TOP)/tools/check.sh --vm-only $(SUITES)

install: lib
	$(Q)$(MAKE) --no-print-directory -C libnpuprof install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

clean:
	$(Q)$(MAKE) --no-print-directory -C $(KDIR) M=$(TOP) clean >/dev/null 2>&1 || true
	$(Q)rm -rf $(BUILD)/tests $(BUILD)/lib $(BUILD)/tools $(BUILD)/results \
		$(BUILD)/vm/results $(BUILD)/*.log
