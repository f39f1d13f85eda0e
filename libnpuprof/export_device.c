// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export, vnpu layout: one device_N/data folder. Its vnpu.ctrl
 * is checked field by field (a wrong clock or layout would make every row
 * wrong, so it is an error, not a warning), its op_summary columns must
 * match the other devices' (the CSV has one header), its records go
 * through the join (export_join.c), and what the join counted becomes the
 * device's statistics rows, summary and warnings.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "npuprof_internal.h"

#define NPX_CTRL_MIN_SIZE 192 /* struct vnpu_ring_ctrl up to start_mono_ns */

/* vnpu.ctrl of the device, checked; its op_summary columns */
static int npx_load_ctrl(struct npx_export *x, const char *dir, const char *label)
{
	struct npx_dev_state *d = &x->d;
	struct vnpu_ring_ctrl *c = &d->ctrl;
	char path[PATH_MAX + 32];
	struct npuprof_error *err = x->o.err;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/" NPUPROF_RAW_CTRL_FILE, dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return npuprof_set_error(err, -errno, "%s/" NPUPROF_RAW_CTRL_FILE ": %s", label,
					 strerror(errno));
	memset(c, 0, sizeof(*c));
	do
		n = read(fd, c, sizeof(*c));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = errno;

		close(fd);
		return npuprof_set_error(err, -e, "%s/" NPUPROF_RAW_CTRL_FILE ": read: %s", label,
					 strerror(e));
	}
	close(fd);
	if (n < NPX_CTRL_MIN_SIZE)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE
					 ": %zd bytes, a struct vnpu_ring_ctrl has at least %d",
					 label, n, NPX_CTRL_MIN_SIZE);
	if (c->magic != VNPU_RING_MAGIC)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": bad magic 0x%llx", label,
					 (unsigned long long)c->magic);
	if (c->compat_version != 1)
		return npuprof_set_error(err, -EPROTO,
					 "%s/" NPUPROF_RAW_CTRL_FILE
					 ": compat_version %u (this library reads 1)",
					 label, c->compat_version);
	if (c->dev_id != d->id)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE
					 ": dev_id %u does not match the folder",
					 label, c->dev_id);
	if (!c->sys_cnt_freq_khz)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": sys_cnt_freq_khz is 0",
					 label);
	if (c->level >= VNPU_PROF_LEVEL_COUNT)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": unknown level %u", label,
					 c->level);
	if (c->n_events > VNPU_PMU_EVENTS)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": n_events %u (at most %u)",
					 label, c->n_events, (unsigned int)VNPU_PMU_EVENTS);
	if (c->metric_group >= VNPU_METRIC_COUNT && c->metric_group != VNPU_METRIC_NONE)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": unknown metric group %u",
					 label, c->metric_group);
	if (c->metric_group != VNPU_METRIC_NONE && !c->aic_freq_khz)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE
					 ": aic_freq_khz is 0 with metric group %u",
					 label, c->metric_group);
	return npx_layout_init(&d->layout, c, err);
}

int npx_device(struct npx_export *x, unsigned int k)
{
	struct npx_dev_state *d = &x->d;
	char dir[PATH_MAX], label[64];
	char *hdr;
	int rc;

	d->id = x->devs[k];
	d->sum = &x->sum.dev[k];
	memset(d->sum, 0, sizeof(*d->sum));
	d->sum->dev_id = d->id;
	d->next_seq = 0;
	d->seq_started = false;
	d->seq_gaps = 0;
	d->unwritten = 0;
	d->dups = 0;
	d->bad_times = 0;
	d->npending = 0;
	d->last = NULL;
	d->whead = 0;
	d->nwin = 0;
	d->have_prev = false;
	d->last_start = 0;
	snprintf(label, sizeof(label), NPUPROF_RAW_DEVICE_DIR "/" NPUPROF_RAW_DATA_DIR, d->id);
	snprintf(dir, sizeof(dir), "%s/%s", x->prof, label);
	rc = npx_load_ctrl(x, dir, label);
	if (rc)
		return rc;
	d->sum->level = d->ctrl.level;
	d->sum->metric_group = d->ctrl.metric_group;
	d->sum->product = d->ctrl.product;
	d->sum->bytes = x->files[k].bytes;

	hdr = npx_op_summary_header(&d->layout);
	if (!hdr)
		return npuprof_set_error(x->o.err, -ENOMEM, "out of memory");
	if (x->op_header_dev < 0) {
		rc = npx_csv_set_header(&x->o, &x->op_summary, hdr);
		x->op_header_dev = (int)d->id;
	} else if (strcmp(hdr, x->op_summary.header)) {
		rc = npuprof_set_error(
			x->o.err, -EINVAL,
			"%s: the op_summary columns of this device (product %u, metric"
			" group %u) differ from device_%d's: one op_summary cannot"
			" hold both",
			label, d->ctrl.product, d->ctrl.metric_group, x->op_header_dev);
	}
	free(hdr);
	if (rc)
		return rc;

	rc = npx_join_device(x, &x->files[k]);
	if (rc)
		return rc;
	rc = npx_opstat_flush(&x->o, &x->op_stat, &x->opstat, d->id);
	if (!rc)
		rc = npx_commstat_flush(&x->o, &x->comm_stat, &x->commstat, d->id);
	if (rc)
		return rc;

	if (d->sum->lost)
		npx_warn(&x->w,
			 "device_%u: %llu records were lost on the device (the ring was full):"
			 " the export is incomplete (see %s/README.txt)",
			 d->id, (unsigned long long)d->sum->lost, NPUPROF_OUTPUT_DIR);
	if (d->unwritten)
		npx_warn(&x->w,
			 "device_%u: %llu records could not be written by the collector (its"
			 " session failed): the export is incomplete (see %s/README.txt)",
			 d->id, (unsigned long long)d->unwritten, NPUPROF_OUTPUT_DIR);
	if (d->seq_gaps)
		npx_warn(&x->w, "device_%u: %llu seq gaps, %llu records missing from the files",
			 d->id, (unsigned long long)d->seq_gaps,
			 (unsigned long long)d->sum->seq_missing);
	if (d->sum->unknown)
		npx_warn(&x->w, "device_%u: %llu records of unknown types skipped", d->id,
			 (unsigned long long)d->sum->unknown);
	if (d->sum->incomplete)
		npx_warn(&x->w,
			 "device_%u: %llu tasks without TASK_START or TASK_END (or records of no"
			 " task) not exported",
			 d->id, (unsigned long long)d->sum->incomplete);
	if (d->sum->out_of_order)
		npx_warn(&x->w,
			 "device_%u: %llu tasks arrived too late for the %u-task reorder window"
			 " and are out of start-time order",
			 d->id, (unsigned long long)d->sum->out_of_order, (unsigned int)NPX_WINDOW);
	if (d->dups)
		npx_warn(&x->w, "device_%u: %llu duplicate task records (the last one is used)",
			 d->id, (unsigned long long)d->dups);
	if (d->bad_times)
		npx_warn(&x->w, "device_%u: %llu tasks end before they start (duration 0)", d->id,
			 (unsigned long long)d->bad_times);
	x->sum.lost += d->sum->lost;
	return 0;
}
