# SPDX-License-Identifier: LGPL-2.1-or-later
# libnpuprof's sources, for every build that compiles them: the library's
# own Makefile, the sanitizer suites (tests/) and the fuzz harnesses
# (tests/fuzz/). Include it with $(TOP) set.
#
# The subsystems, each a folder with one header that is its interface
# (docs/architecture.md), the lower first; tools/lint.sh's include check
# holds each to the ones below it that it may use.
NPL_SUBSYS := core format runtime netlink hostrec session collect export
NPL_DIR := $(TOP)/libnpuprof
NPL_SRCS := $(foreach d,$(NPL_SUBSYS),$(wildcard $(NPL_DIR)/$(d)/*.c))
NPL_HDRS := $(wildcard $(NPL_DIR)/include/npuprof/*.h) \
	$(foreach d,$(NPL_SUBSYS),$(wildcard $(NPL_DIR)/$(d)/*.h)) $(wildcard $(TOP)/uapi/*.h)
# "core/core.h" from the top of the library; the public headers as a user has them
NPL_CFLAGS := -I$(NPL_DIR) -I$(NPL_DIR)/include/npuprof -I/usr/include/libnl3
# what a program gets: the public headers and the uapi they include
NPL_PUBLIC_CFLAGS := -I$(NPL_DIR)/include/npuprof -I$(TOP)/uapi
NPL_PUBLIC_HDRS := $(wildcard $(NPL_DIR)/include/npuprof/*.h) $(wildcard $(TOP)/uapi/*.h)
