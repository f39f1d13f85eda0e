// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: an op's six tensor strings (op_summary's Input and
 * Output Shapes, Data Types and Formats) from its tensor_info records, in
 * msprof's words: GE's data type and format names, and msprof's way of
 * joining dims and tensors.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"

/* GE data types (msprof's GeDataType), by value */
static const char *const ge_dtypes[] = {
	"FLOAT",
	"FLOAT16",
	"INT8",
	"INT32",
	"UINT8",
	NULL,
	"INT16",
	"UINT16",
	"UINT32",
	"INT64",
	"UINT64",
	"DOUBLE",
	"BOOL",
	"STRING",
	"DUAL_SUB_INT8",
	"DUAL_SUB_UINT8",
	"COMPLEX64",
	"COMPLEX128",
	"QINT8",
	"QINT16",
	"QINT32",
	"QUINT8",
	"QUINT16",
	"RESOURCE",
	"STRING_REF",
	"DUAL",
	"DT_VARIANT",
	"DT_BF16",
	"DT_UNDEFINED",
	"DT_INT4",
	"DT_UINT1",
	"DT_INT2",
	"DT_UINT2",
	"DT_COMPLEX32",
	"DT_HIFLOAT8",
	"DT_FLOAT8_E5M2",
	"DT_FLOAT8_E4M3FN",
	"DT_FLOAT8_E8M0",
	"DT_FLOAT6_E3M2",
	"DT_FLOAT6_E2M3",
	"DT_FLOAT4_E2M1",
	"DT_FLOAT4_E1M2",
	"DT_MAX",
};

/* GE formats (msprof's GeDataFormat) 0 .. 55 */
static const char *const ge_formats[] = {
	"NCHW",
	"NHWC",
	"ND",
	"NC1HWC0",
	"FRACTAL_Z",
	"NC1C0HWPAD",
	"NHWC1C0",
	"FSR_NCHW",
	"FRACTAL_DECONV",
	"C1HWNC0",
	"FRACTAL_DECONV_TRANSPOSE",
	"FRACTAL_DECONV_SP_STRIDE_TRANS",
	"NC1HWC0_C04",
	"FRACTAL_Z_C04",
	"CHWN",
	"FRACTAL_DECONV_SP_STRIDE8_TRANS",
	"HWCN",
	"NC1KHKWHWC0",
	"BN_WEIGHT",
	"FILTER_HWCK",
	"HASHTABLE_LOOKUP_LOOKUPS",
	"HASHTABLE_LOOKUP_KEYS",
	"HASHTABLE_LOOKUP_VALUE",
	"HASHTABLE_LOOKUP_OUTPUT",
	"HASHTABLE_LOOKUP_HITS",
	"C1HWNCoC0",
	"MD",
	"NDHWC",
	"FRACTAL_ZZ",
	"FRACTAL_NZ",
	"NCDHW",
	"DHWCN",
	"NDC1HWC0",
	"FRACTAL_Z_3D",
	"CN",
	"NC",
	"DHWNC",
	"FRACTAL_Z_3D_TRANSPOSE",
	"FRACTAL_ZN_LSTM",
	"FRACTAL_Z_G",
	"RESERVED",
	"ALL",
	"NULL",
	"ND_RNN_BIAS",
	"FRACTAL_ZN_RNN",
	"NYUV",
	"NYUV_A",
	"NCL",
	"FRACTAL_Z_WINO",
	"C1HWC0",
	"FRACTAL_NZ_C0_16",
	"FRACTAL_NZ_C0_32",
	"FRACTAL_NZ_C0_2",
	"FRACTAL_NZ_C0_4",
	"FRACTAL_NZ_C0_8",
	"END",
};

struct strbuf {
	char *s;
	size_t n, cap;
};

static int sb_put(struct strbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		char *p;

		while (cap < b->n + n + 1)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p)
			return -ENOMEM;
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
	return 0;
}

static int sb_str(struct strbuf *b, const char *s)
{
	return sb_put(b, s, strlen(s));
}

static const char *dtype_name(uint32_t t, char *buf, size_t len)
{
	if (t < NPX_ARRAY_SIZE(ge_dtypes) && ge_dtypes[t])
		return ge_dtypes[t];
	if (t >= 229 && t <= 246) {
		static const char *const num[] = { "NUMBER_TYPE_BEGIN_",
						   "BOOL_",
						   "INT_",
						   "INT8_",
						   "INT16_",
						   "INT32_",
						   "INT64_",
						   "UINT_",
						   "UINT8_",
						   "UINT16_",
						   "UINT32_",
						   "UINT64_",
						   "FLOAT_",
						   "FLOAT16_",
						   "FLOAT32_",
						   "FLOAT64_",
						   "COMPLEX_",
						   "NUMBER_TYPE_END_" };

		return num[t - 229];
	}
	(void)buf;
	(void)len;
	return "UNDEFINED";
}

static const char *format_name(uint32_t f, char *buf, size_t len, struct npa_warn *w)
{
	static const char *const high[] = {
		"UNKNOWN_",	   "DEFAULT_",	   "NC1KHKWHWC0_",   "ND_",	"NCHW_",
		"NHWC_",	   "HWCN_",	   "NC1HWC0_",	     "FRAC_Z_", "C1HWNCOC0_",
		"FRAC_NZ_",	   "NC1HWC0_C04_", "FRACTAL_Z_C04_", "NDHWC_",	"FRACTAL_ZN_LSTM_",
		"FRACTAL_ZN_RNN_", "ND_RNN_BIAS_", "NDC1HWC0_",	     "NCDHW_",	"FRACTAL_Z_3D_",
		"DHWNC_",	   "DHWCN_"
	};
	uint32_t base = f & 0xff, sub = (f & 0xffff00) >> 8;
	const char *name = NULL;

	if (f == 0xffffffffu)
		return "UNDEFINED";
	if (base < NPX_ARRAY_SIZE(ge_formats))
		name = ge_formats[base];
	else if (base >= 200 && base <= 221)
		name = high[base - 200];
	else if (base == 0xff)
		name = "MAX";
	if (!name) {
		npa_warn(w, "tensor format %u is unknown: written as its number", base);
		snprintf(buf, len, "%u", f);
		return buf;
	}
	if (sub) {
		snprintf(buf, len, "%s:%u", name, sub);
		return buf;
	}
	return name;
}

/*
 * The six tensor strings of an op from its tensor_info records (@ti[0..n)),
 * as msprof writes them: dims without zeros by ',', tensors by ';', shapes
 * wrapped in quotes (which the CSV then doubles).
 */
int npa_op_tensors(struct npa_host *h, struct npa_op *op, const struct cann_tensor_info *const *ti,
		   size_t n, struct npa_warn *w)
{
	struct strbuf sh[2] = { 0 }, ty[2] = { 0 }, fm[2] = { 0 };
	bool any[2] = { false, false };
	char buf[64];
	int rc = 0;

	for (int io = 0; io < 2; io++)
		rc |= sb_str(&sh[io], "\"");
	for (size_t i = 0; i < n && !rc; i++) {
		uint32_t num =
			ti[i]->tensor_num < CANN_MAX_TENSORS ? ti[i]->tensor_num : CANN_MAX_TENSORS;

		for (uint32_t k = 0; k < num && !rc; k++) {
			const struct cann_tensor *t = &ti[i]->tensor[k];
			int io = t->io == 1;
			bool first_dim = true;

			if (t->io > 1)
				continue;
			if (any[io]) {
				rc |= sb_str(&sh[io], ";");
				rc |= sb_str(&ty[io], ";");
				rc |= sb_str(&fm[io], ";");
			}
			any[io] = true;
			for (int d = 0; d < CANN_TENSOR_DIMS; d++) {
				if (!t->dims[d])
					continue;
				snprintf(buf, sizeof(buf), "%s%u", first_dim ? "" : ",",
					 t->dims[d]);
				rc |= sb_str(&sh[io], buf);
				first_dim = false;
			}
			rc |= sb_str(&ty[io], dtype_name(t->data_type, buf, sizeof(buf)));
			rc |= sb_str(&fm[io], format_name(t->format, buf, sizeof(buf), w));
		}
	}
	for (int io = 0; io < 2; io++)
		rc |= sb_str(&sh[io], "\"");
	/* a side without tensors, like an op without tensor_info, is N/A */
	for (int io = 0; io < 2 && !rc; io++) {
		const char **sp = io ? &op->out_shapes : &op->in_shapes;
		const char **tp = io ? &op->out_types : &op->in_types;
		const char **fp = io ? &op->out_formats : &op->in_formats;

		if (!any[io])
			continue;
		*sp = npa_host_tensor_str(h, sh[io].s);
		*tp = npa_host_tensor_str(h, ty[io].s ? ty[io].s : "");
		*fp = npa_host_tensor_str(h, fm[io].s ? fm[io].s : "");
		if (!*sp || !*tp || !*fp)
			rc = -ENOMEM;
	}
	for (int io = 0; io < 2; io++) {
		free(sh[io].s);
		free(ty[io].s);
		free(fm[io].s);
	}
	return rc ? -ENOMEM : 0;
}
