// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the loss reports our collector writes beside the raw
 * data it could not keep whole (device_N/vnpu_loss.json for the device's
 * channels, host/vnpu_loss.json for the host records; ours, not msprof's,
 * docs/output.md "Loss accounting"). msprof's own folders have none: no
 * report is no loss known. Every entry must balance, produced == written +
 * lost + not_written; one that does not is a warning naming the file.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "export/ascend.h"

static bool count(struct json_object *e, const char *key, uint64_t *v)
{
	struct json_object *o;
	int64_t n;

	if (!json_object_object_get_ex(e, key, &o) || !json_object_is_type(o, json_type_int))
		return false;
	n = json_object_get_int64(o);
	if (n < 0)
		return false;
	*v = (uint64_t)n;
	return true;
}

void npa_loss_load(const char *dir, struct npa_loss *l, struct npa_warn *w)
{
	char path[PATH_MAX + 32];
	struct json_object *o, *arr;
	struct npuprof_error e;
	size_t n;
	int rc;

	memset(l, 0, sizeof(*l));
	snprintf(path, sizeof(path), "%s/" NPF_RAW_LOSS_FILE, dir);
	npx_clear_error(&e);
	rc = npa_json_load(path, &o, &e);
	if (rc == -ENOENT)
		return;
	if (rc) {
		npa_warn(w, "%s: the losses it counts are unknown", e.msg);
		return;
	}
	if (!json_object_object_length(o)) {
		/* the room reserved at the start, never filled: the run did not end */
		npa_warn(w,
			 "%s: the collector did not finish (was the run killed?): the records"
			 " it had not written are missing, and not counted",
			 path);
		json_object_put(o);
		return;
	}
	if (!json_object_object_get_ex(o, "channels", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		npa_warn(w, "%s: malformed loss report: the losses it counts are unknown", path);
		json_object_put(o);
		return;
	}
	l->present = true;
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		uint64_t produced, lost, written, not_written, rec_size;

		if (!count(e, "produced", &produced) || !count(e, "lost", &lost) ||
		    !count(e, "written", &written) || !count(e, "not_written", &not_written) ||
		    produced != written + lost + not_written) {
			npa_warn(w,
				 "%s: entry %zu is malformed or does not balance (produced =="
				 " written + lost + not_written): ignored",
				 path, i);
			continue;
		}
		l->produced += produced;
		l->lost += lost;
		l->written += written;
		/* a dictionary's (text, counted in bytes) is written at every start */
		if (count(e, "record_size", &rec_size) && rec_size)
			l->written_records += written;
		l->not_written += not_written;
	}
	json_object_put(o);
}
