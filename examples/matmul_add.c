// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A tiny single-device workload: N rounds of MatMul + Add + Relu on
 * /dev/vnpu0. With --scoped it profiles itself with the Profiler block
 * (level L1, output ./); without, run it under `npuprof run`.
 *
 * Usage: matmul_add [--scoped] [ROUNDS]   (default 10)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuprof.h"

static int work(struct npuprof_dev *dev, uint32_t stream, int rounds)
{
	uint64_t dims[2] = { 256, 256 };
	struct vnpu_task t[3];
	struct npuprof_error err;

	for (int i = 0; i < rounds; i++) {
		if (npuprof_op_matmul(dev, &t[0], "fc/MatMul", stream, 256, 256, 256,
				      VNPU_DT_FLOAT16) ||
		    npuprof_op_add(dev, &t[1], "fc/BiasAdd", stream, 2, dims, VNPU_DT_FLOAT16) ||
		    npuprof_op_relu(dev, &t[2], "fc/Relu", stream, 2, dims, VNPU_DT_FLOAT16))
			return 1;
		if (npuprof_launch(dev, t, 3, NULL, &err)) {
			fprintf(stderr, "matmul_add: %s\n", err.msg);
			return 1;
		}
	}
	if (npuprof_sync(dev, stream, 60000, &err)) {
		fprintf(stderr, "matmul_add: %s\n", err.msg);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int scoped = argc > 1 && !strcmp(argv[1], "--scoped");
	int rounds = argc > 1 + scoped ? atoi(argv[1 + scoped]) : 10;
	struct npuprof_scope prof;
	struct npuprof_error err;
	struct npuprof_dev *dev;
	uint32_t stream;
	int ret = 0;

	if (rounds < 1) {
		fprintf(stderr, "usage: matmul_add [--scoped] [ROUNDS >= 1]\n");
		return 2;
	}
	if (npuprof_open(0, &dev, &err) || npuprof_stream_create(dev, &stream, &err)) {
		fprintf(stderr, "matmul_add: %s\n", err.msg);
		return 1;
	}
	if (scoped) {
		NPUPROF_PROFILER(&prof, .level = "L1", .output_path = "./")
		{
			ret = work(dev, stream, rounds);
		}
		if (prof.ret) {
			fprintf(stderr, "matmul_add: profiler: %s\n", prof.err.msg);
			ret = 1;
		}
	} else {
		ret = work(dev, stream, rounds);
	}
	npuprof_close(dev);
	return ret;
}
