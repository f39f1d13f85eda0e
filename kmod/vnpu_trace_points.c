// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the one file that creates the tracepoints of vnpu_trace.h.
 */
#define CREATE_TRACE_POINTS
#include "vnpu_trace.h"
