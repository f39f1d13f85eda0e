// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export, vnpu layout: host/data/api.rec.*, the AscendCL API
 * calls the runtime recorded (struct npuprof_api_rec), into api_statistic
 * and the timeline's AscendCL process. They are read after every device,
 * so that api_statistic holds the Runtime and the AscendCL levels.
 */
#include "npuprof_internal.h"

int npx_host(struct npx_export *x)
{
	const void *rec;
	struct npx_reader r;
	uint64_t off, unknown = 0, bad_times = 0;
	size_t size;
	int rc;

	if (!x->host.n)
		return 0;
	rc = npx_reader_open(&r, &x->host, 8, x->o.err);
	if (rc)
		return rc;
	while ((rc = npx_reader_next(&r, &rec, &size, &off, &x->w, x->o.err)) > 0) {
		const struct npuprof_api_rec *a = rec;
		char file[128];
		uint64_t dur;

		if (a->type != NPUPROF_API_REC_TYPE) {
			unknown++;
			continue;
		}
		if (size < sizeof(*a)) {
			npx_reader_path(&r, file, sizeof(file));
			rc = npx_short_record(x, file, off, "api", size, sizeof(*a));
			break;
		}
		x->sum.host_api_records++;
		if (a->end_ns >= a->start_ns) {
			dur = a->end_ns - a->start_ns;
		} else {
			dur = 0;
			bad_times++;
		}
		rc = npx_row_host_api(x, a, dur);
		if (!rc)
			rc = npx_progress(x, x->done + r.consumed);
		if (rc)
			break;
	}
	x->done += r.consumed;
	npx_reader_close(&r);
	if (rc)
		return rc;
	if (unknown)
		npx_warn(&x->w, "%s: %llu records of unknown types skipped", x->host.label,
			 (unsigned long long)unknown);
	if (bad_times)
		npx_warn(&x->w, "%s: %llu API records end before they start (duration 0)",
			 x->host.label, (unsigned long long)bad_times);
	return 0;
}
