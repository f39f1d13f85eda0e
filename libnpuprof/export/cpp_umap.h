/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof export: the iteration order of a libstdc++ (GCC 12, 64-bit)
 * std::unordered_map<std::string, T>, which decides the order of some of
 * msprof's C++ path's outputs (cpp_umap.c).
 */
#ifndef NPA_CPP_UMAP_H
#define NPA_CPP_UMAP_H

#include <stddef.h>
#include <stdint.h>

/* std::hash<std::string> of @len bytes at @s (std::_Hash_bytes, seed 0xc70f6907) */
uint64_t npa_cpp_str_hash(const void *s, size_t len);

/*
 * The order in which a default-constructed unordered_map iterates @n
 * distinct @keys inserted one by one in the order given: @order[i] is the
 * index in @keys of the i-th key iterated. 0 or -ENOMEM.
 */
int npa_cpp_umap_order(const char *const *keys, size_t n, size_t *order);

#endif /* NPA_CPP_UMAP_H */
