// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the configuration files of a PROF_* folder in the
 * real layout, read as msprof's InfoConfReader reads them
 * (docs/msprof-parser.md section 2):
 *
 *   host/info.json          pid, CPU[0].Frequency
 *   host/start_info         collectionTimeBegin, clockMonotonicRaw
 *   host/end_info           collectionTimeEnd
 *   device_N/info.json.N    pid, DeviceInfo[0]: hwts_frequency, aic_frequency,
 *                           ai_core_num, aiv_num
 *   device_N/sample.json    ai_core_metrics, ai_core_profiling_events,
 *                           aiv_metrics, aiv_profiling_events
 *   device_N/start_info.N, end_info.N
 *   device_N/host_start.log.N   [DeviceN] clock_monotonic_raw, cntvct_diff
 *   device_N/dev_start.log.N    cntvct
 *
 * Numbers may be JSON strings or numbers, as msprof's writers use both.
 * Every problem names the file; what a device cannot do without (its
 * counter frequency, its clocks) is an error for that device only.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"

/* a member as a string: JSON strings as they are, numbers printed */
static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	if (json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double))
		return json_object_get_string(v);
	return NULL;
}

/* a member as a number (a JSON number or a numeric string); false if absent or bad */
static bool jnum(struct json_object *o, const char *key, double *out)
{
	const char *s = jstr(o, key);
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return !errno && end != s && !*end;
}

/*
 * JSON nesting the configuration files need: info.json's deepest member is
 * 3 levels down; json-c's own default (32) lets a hostile file recurse.
 */
#define NPA_JSON_DEPTH 16

int npa_json_load(const char *path, struct json_object **out, struct npuprof_error *err)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	struct json_object *o;
	size_t len, end;
	char *buf;
	int rc;

	*out = NULL;
	rc = npx_input_read(path, NPX_CAP_JSON, "JSON file", &buf, &len, err);
	if (rc)
		return rc;
	tok = json_tokener_new_ex(NPA_JSON_DEPTH);
	if (!tok) {
		free(buf);
		return npx_set_error(err, -ENOMEM, "%s: out of memory", path);
	}
	/* with its NUL: the end of the input, so a bare number at the end is whole */
	o = json_tokener_parse_ex(tok, buf, (int)len + 1);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr != json_tokener_success) {
		rc = npx_set_error(err, -EBADMSG, "%s: offset %zu: not valid JSON (%s)", path,
				   end > len ? len : end, json_tokener_error_desc(jerr));
		goto out;
	}
	/* msprof's json.load() refuses anything but blanks after the value */
	while (end < len && buf[end] && strchr(" \t\r\n", buf[end]))
		end++;
	if (end < len) {
		rc = npx_set_error(err, -EBADMSG, "%s: offset %zu: bytes after the JSON value",
				   path, end);
		goto out;
	}
	if (!json_object_is_type(o, json_type_object)) {
		rc = npx_set_error(err, -EBADMSG, "%s: not a JSON object", path);
		goto out;
	}
	*out = o;
	o = NULL;
out:
	json_object_put(o);
	free(buf);
	return rc;
}

/*
 * @path's object, or NULL: an error in @err (its code in *@rc) when
 * @required, else a warning
 */
static struct json_object *load_json(const char *path, struct npa_warn *w, bool required,
				     struct npuprof_error *err, int *rc)
{
	struct json_object *o;
	struct npuprof_error e;

	npx_clear_error(&e);
	*rc = npa_json_load(path, &o, &e);
	if (!*rc)
		return o;
	if (required)
		npx_set_error(err, *rc, "%s", e.msg);
	else
		npa_warn(w, "%s", e.msg);
	if (!required)
		*rc = 0;
	return NULL;
}

static bool u64_of(const char *s, uint64_t *out);

/* start_info(.N) and end_info(.N) into @c */
static int load_clock(const char *start, const char *end, struct npa_clock *c, struct npa_warn *w,
		      struct npuprof_error *err)
{
	struct json_object *o;
	const char *begin, *mono, *fin;
	char begin_s[sizeof(c->begin)];
	double b, m, e;
	int rc;

	memset(c, 0, sizeof(*c));
	o = load_json(start, w, true, err, &rc);
	if (!o)
		return rc;
	begin = jstr(o, "collectionTimeBegin");
	mono = jstr(o, "clockMonotonicRaw");
	if (!begin || !mono || strlen(begin) >= sizeof(c->begin) ||
	    !jnum(o, "collectionTimeBegin", &b) || !jnum(o, "clockMonotonicRaw", &m)) {
		json_object_put(o);
		return npx_set_error(err, -EBADMSG,
				     "%s: no valid collectionTimeBegin and clockMonotonicRaw",
				     start);
	}
	snprintf(c->begin, sizeof(c->begin), "%s", begin);
	snprintf(c->mono, sizeof(c->mono), "%.31s", mono);
	snprintf(begin_s, sizeof(begin_s), "%s", begin);
	/* msprof: float(collectionTimeBegin) - float(clockMonotonicRaw) / 1000.0 */
	c->offset = b - m / 1000.0;
	c->mono_raw = m;
	c->have_begin = true;
	json_object_put(o);

	o = load_json(end, w, false, err, &rc);
	fin = jstr(o, "collectionTimeEnd");
	if (o && fin && strlen(fin) < sizeof(c->end) && jnum(o, "collectionTimeEnd", &e) &&
	    (e < b || e - b > NPA_MAX_SESSION_US))
		/* a clock from elsewhere: the timeline's fills would run for ever */
		npa_warn(
			w,
			"%s: collectionTimeEnd %s is not within a day after %s's begin %s: ignored",
			end, fin, start, begin_s);
	else if (o && fin && strlen(fin) < sizeof(c->end))
		snprintf(c->end, sizeof(c->end), "%s", fin);
	else if (o)
		npa_warn(w, "%s: no collectionTimeEnd", end);
	json_object_put(o);
	return 0;
}

/*
 * msprof's chip ids (ChipModel); the export reads the formats of the STARS
 * chips 5 (Atlas A2/A3) and 7 (Atlas 200I/500 A2), whose device records
 * are alike (docs/msprof-parser.md section 11), and of the HWTS chips 1
 * (Atlas training series) and 4 (Atlas inference series, section 12). The
 * id into *@chip.
 */
static int check_platform(struct json_object *o, const char *path, uint32_t *chip,
			  struct npa_warn *w, struct npuprof_error *err)
{
	const char *s = jstr(o, "platform_version");
	double v;

	if (!s || !jnum(o, "platform_version", &v))
		return npx_set_error(err, -EBADMSG, "%s: no platform_version", path);
	/* a whole number msprof knows (chip_table.c) */
	if (v >= 0 && v < 1024 && v == (double)(uint32_t)v && npf_chip_known((uint32_t)v)) {
		*chip = (uint32_t)v;
		if (!npf_chip_has(*chip, NPF_CHIP_READ))
			npa_warn(w,
				 "%s: platform_version %s: only the formats of chips 1, 4, 5 and 7"
				 " (Atlas training series, inference series, A2/A3, 200I/500 A2)"
				 " are read; the raw files are read as chip 5's",
				 path, s);
		return 0;
	}
	return npx_set_error(err, -EBADMSG,
			     "%s: platform_version '%.32s' is not a known Ascend chip (known: 0-5,"
			     " 7, 8, 9, 11, 15, 16)",
			     path, s);
}

/*
 * info.json or info.json.N: a known platform (its id into *@chip), its pid
 * into *@pid; the object, or NULL
 */
static struct json_object *load_info(const char *path, long *pid, uint32_t *chip,
				     struct npa_warn *w, struct npuprof_error *err, int *rc)
{
	struct json_object *o = load_json(path, w, true, err, rc);
	double v;

	if (!o)
		return NULL;
	*rc = check_platform(o, path, chip, w, err);
	if (*rc) {
		json_object_put(o);
		return NULL;
	}
	if (jnum(o, "pid", &v) && v >= 0 && v < 4194304.0)
		*pid = (long)v;
	else
		npa_warn(w, "%s: no pid, or not a pid (the timeline's process ids use 0)", path);
	return o;
}

int npa_host_cfg_load(const char *dir, struct npa_host_cfg *c, struct npa_warn *w,
		      struct npuprof_error *err)
{
	char path[PATH_MAX + 32];
	struct json_object *o, *cpu, *c0;
	struct npuprof_error e;
	uint32_t chip;
	double v;
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/" NPF_RAW_INFO_JSON, dir);
	o = load_info(path, &c->pid, &chip, w, err, &rc);
	if (!o)
		return rc;
	if (json_object_object_get_ex(o, "CPU", &cpu) &&
	    json_object_is_type(cpu, json_type_array) && (c0 = json_object_array_get_idx(cpu, 0)) &&
	    jnum(c0, "Frequency", &v) && v > 0)
		c->cpu_hz = v * 1e6;
	json_object_put(o);

	/* profLevel (prof_level on HiSilicon) l0 / level0: op names only (add_kernel_task_l0) */
	snprintf(path, sizeof(path), "%s/" NPF_RAW_SAMPLE_JSON, dir);
	/* optional, and msprof's host folders often have none: no warning when absent */
	npx_clear_error(&e);
	rc = npa_json_load(path, &o, &e);
	if (rc && rc != -ENOENT)
		npa_warn(w, "%s: ignored", e.msg);
	if (!rc) {
		const char *lv = jstr(o, "profLevel");

		if (!lv || !*lv)
			lv = jstr(o, "prof_level");
		c->level0 = npf_level_of(lv, true) == VNPU_PROF_L0 ||
			    (lv && !strcmp(lv, "level0")); /* HiSilicon's prof_level */
	}
	json_object_put(o);

	snprintf(path, sizeof(path), "%s/" NPF_RAW_START_INFO, dir);
	{
		char end[PATH_MAX + 32];

		uint64_t begin, mono;
		int rc;

		snprintf(end, sizeof(end), "%s/" NPF_RAW_END_INFO, dir);
		rc = load_clock(path, end, &c->clock, w, err);
		/* the C++ path's offset, in integers (ApiProcessor, GetLocalTime) */
		if (!rc && u64_of(c->clock.begin, &begin) && u64_of(c->clock.mono, &mono) &&
		    begin <= UINT64_MAX / 1000 && begin * 1000 >= mono) {
			c->cpp_ok = true;
			c->cpp_begin_ns = begin * 1000;
			c->cpp_local = begin * 1000 - mono;
		}
		return rc;
	}
}

/* "0x8,0xa,..." into @ev; false when malformed */
static bool parse_events(const char *s, uint32_t *ev, uint32_t *n)
{
	*n = 0;
	if (!s || !*s)
		return true;
	while (*s) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(s, &end, 16);
		if (errno || end == s || v > 0xffff || *n == NPA_PMU_EVENTS)
			return false;
		ev[(*n)++] = (uint32_t)v;
		if (*end == ',')
			end++;
		else if (*end)
			return false;
		s = end;
	}
	return true;
}

/*
 * A start log (host_start.log.N, dev_start.log.N), read whole. A file
 * whose last line has no newline was cut short: its last value may be a
 * truncated number, so that is warned about.
 */
static int log_read(const char *path, char **buf, size_t *len, struct npa_warn *w,
		    struct npuprof_error *err)
{
	int rc = npx_input_read(path, NPX_CAP_LOG, "start log", buf, len, err);

	if (!rc && *len && (*buf)[*len - 1] != '\n')
		npa_warn(w, "%s: the last line has no newline: the file may have been cut short",
			 path);
	return rc;
}

/*
 * "key: value" of a start log @buf (@len bytes), the first section only
 * when @ini; the first match, its value into @out. A line is taken up to
 * its first NUL byte or 255 bytes, whichever comes first.
 */
static bool log_value(const char *buf, size_t len, const char *key, bool ini, char *out,
		      size_t out_len)
{
	size_t klen = strlen(key);
	int sections = 0;

	for (size_t at = 0; at < len;) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;
		char line[256], *p = line, *e;

		snprintf(line, sizeof(line), "%.*s", (int)(n < 255 ? n : 255), buf + at);
		at += n + 1;
		if (*p == '[') {
			if (ini && ++sections > 1)
				break;
			continue;
		}
		if (strncmp(p, key, klen) || (p[klen] != ':' && p[klen] != '=' && p[klen] != ' '))
			continue;
		p += klen;
		while (*p == ' ' || *p == ':' || *p == '=')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == '\r' || e[-1] == ' '))
			*--e = 0;
		snprintf(out, out_len, "%s", p);
		return true;
	}
	return false;
}

/* a whole decimal number (StrToU64) into *@out */
static bool u64_of(const char *s, uint64_t *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* msprof's C++ path: the host CPU's MHz, CPU[-1].Frequency, 1000 when empty */
static double cpu_mhz(struct json_object *o)
{
	struct json_object *cpu, *last;
	double v;
	size_t n;

	if (!json_object_object_get_ex(o, "CPU", &cpu) ||
	    !json_object_is_type(cpu, json_type_array))
		return 1000.0;
	n = json_object_array_length(cpu);
	last = n ? json_object_array_get_idx(cpu, n - 1) : NULL;
	if (!last || !jnum(last, "Frequency", &v) || !(v > 0))
		return 1000.0;
	return v;
}

int npa_dev_cfg_load(const char *dir, uint32_t id, struct npa_dev_cfg *c, struct npa_warn *w,
		     struct npuprof_error *err)
{
	uint64_t dev_cnt = 0, mon = 0, diff, begin;
	double host_mhz, mon_d;
	bool cpp_ok;
	char path[PATH_MAX + 32], end[PATH_MAX + 32], val[64];
	struct json_object *o, *di, *d0;
	bool found;
	size_t len;
	char *buf;
	const char *s;
	double v;
	int rc;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->metric_group = VNPU_METRIC_NONE;
	snprintf(path, sizeof(path), "%s/" NPF_RAW_INFO_JSON ".%u", dir, id);
	o = load_info(path, &c->pid, &c->chip_id, w, err, &rc);
	if (!o)
		return rc;
	if (!json_object_object_get_ex(o, "DeviceInfo", &di) ||
	    !json_object_is_type(di, json_type_array) || !(d0 = json_object_array_get_idx(di, 0))) {
		json_object_put(o);
		return npx_set_error(err, -EBADMSG, "%s: no DeviceInfo", path);
	}
	if (!jnum(d0, "hwts_frequency", &v) || !(v > 0 && v < 1e9)) {
		json_object_put(o);
		return npx_set_error(
			err, -EBADMSG,
			"%s: DeviceInfo[0].hwts_frequency is missing or not a frequency in MHz",
			path);
	}
	c->hwts_hz = v * 1e6;
	c->cpp.freq = v;
	host_mhz = cpu_mhz(o);
	/*
	 * The C++ path refuses a folder without these ("JSON parameter loading
	 * failed", export_manager.cpp): CANN then prints nothing of it, and a
	 * folder of a CANN that wrote none is the pure-Python path's
	 */
	cpp_ok = json_object_object_get_ex(o, "memoryTotal", NULL) &&
		 json_object_object_get_ex(o, "netCard", NULL);
	if (jnum(d0, "aic_frequency", &v) && v > 0 && v < 1e9)
		c->aic_mhz = v;
	else
		npa_warn(w, "%s: DeviceInfo[0].aic_frequency is missing or not a frequency in MHz",
			 path);
	if (jnum(d0, "ai_core_num", &v) && v >= 0 && v < 1e6)
		c->ai_core_num = (uint32_t)v;
	if (jnum(d0, "aiv_num", &v) && v >= 0 && v < 1e6)
		c->aiv_num = (uint32_t)v;
	json_object_put(o);

	snprintf(path, sizeof(path), "%s/" NPF_RAW_SAMPLE_JSON, dir);
	o = load_json(path, w, false, err, &rc);
	if (o) {
		s = jstr(o, "profLevel");
		c->level = npf_level_of(s, true);
		if (c->level >= VNPU_PROF_LEVEL_COUNT)
			c->level = VNPU_PROF_L0; /* msprof's default */
		s = jstr(o, "ai_core_metrics");
		snprintf(c->aic_metrics, sizeof(c->aic_metrics), "%s", s ? s : "");
		c->metric_group = npf_metric_group(c->aic_metrics, false);
		s = jstr(o, "aiv_metrics");
		snprintf(c->aiv_metrics, sizeof(c->aiv_metrics), "%s", s ? s : "");
		if (!parse_events(jstr(o, "ai_core_profiling_events"), c->aic_events,
				  &c->n_aic_events) ||
		    !parse_events(jstr(o, "aiv_profiling_events"), c->aiv_events,
				  &c->n_aiv_events)) {
			npa_warn(w, "%s: malformed ai_core/aiv_profiling_events: no PMU columns",
				 path);
			c->n_aic_events = c->n_aiv_events = 0;
			c->aic_metrics[0] = c->aiv_metrics[0] = 0;
		}
		json_object_put(o);
	}

	snprintf(path, sizeof(path), "%s/dev_start.log.%u", dir, id);
	rc = log_read(path, &buf, &len, w, err);
	if (rc)
		return rc;
	found = log_value(buf, len, "cntvct", false, val, sizeof(val));
	free(buf);
	if (!found)
		return npx_set_error(err, -EBADMSG, "%s: no cntvct", path);
	c->dev_cnt = strtod(val, NULL) / 1e9;
	cpp_ok = cpp_ok && u64_of(val, &dev_cnt);
	snprintf(path, sizeof(path), "%s/host_start.log.%u", dir, id);
	rc = log_read(path, &buf, &len, w, err);
	if (rc)
		return rc;
	if (!log_value(buf, len, "clock_monotonic_raw", true, val, sizeof(val))) {
		free(buf);
		return npx_set_error(err, -EBADMSG, "%s: no clock_monotonic_raw", path);
	}
	v = strtod(val, NULL);
	cpp_ok = cpp_ok && u64_of(val, &mon);
	/* hostMonotonic += diff * 1000 / MHz: a double, back into the integer */
	if (!log_value(buf, len, "cntvct_diff", true, val, sizeof(val)))
		snprintf(val, sizeof(val), "0");
	if (u64_of(val, &diff)) {
		mon_d = (double)mon + (double)(diff * 1000) / host_mhz;
		if (mon_d >= 0 && mon_d < 18446744073709551616.0)
			mon = (uint64_t)mon_d;
		else
			cpp_ok = false;
	}
	if (strtod(val, NULL) != 0)
		/* msprof: raw + round(cntvct_diff * 1e9 / host_freq), host_freq 1e9 here */
		v += (double)npx_i64(strtod(val, NULL) + (strtod(val, NULL) < 0 ? -0.5 : 0.5));
	c->host_mon = v / 1e9;
	c->host_cnt = c->host_mon;
	if (log_value(buf, len, "cntvct", true, val, sizeof(val)))
		c->host_cnt = strtod(val, NULL) / 1e9;
	free(buf);

	snprintf(path, sizeof(path), "%s/" NPF_RAW_START_INFO ".%u", dir, id);
	snprintf(end, sizeof(end), "%s/" NPF_RAW_END_INFO ".%u", dir, id);
	rc = load_clock(path, end, &c->clock, w, err);
	if (!rc && cpp_ok && u64_of(c->clock.begin, &begin) && begin * 1000 / 1000 == begin &&
	    begin * 1000 >= (uint64_t)c->clock.mono_raw) {
		c->cpp = (struct npa_cpp_clock){
			.ok = c->cpp.freq > 0 && npf_chip_has(c->chip_id, NPF_CHIP_CPP_PATH),
			.dev_cnt = dev_cnt,
			.host_mon = mon,
			.freq = c->cpp.freq,
			.begin_ns = begin * 1000,
			.local = begin * 1000 - (uint64_t)c->clock.mono_raw,
		};
	}
	/* int((int(clockMonotonicRaw) - host_mon * 1e9) * (host_freq / 1e9) + host_cnt * 1e9) */
	c->host_start_count = (double)npx_i64_ld((long double)npx_i64(c->clock.mono_raw) -
						 (long double)(c->host_mon * 1e9) +
						 (long double)(c->host_cnt * 1e9));
	return rc;
}
