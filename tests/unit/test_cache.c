/* The partition cache (lto-backend/cache/): a key is the partition's module
 * under the compile's settings, so the same module keys the same, and a
 * changed body or setting keys differently; with names masked, a module
 * whose string literals were renumbered by an edit elsewhere keys the same;
 * a file an LLVM option names keys its contents; an entry gives back
 * exactly the bytes stored under its key, and a truncated, corrupt or
 * mislabelled entry is a miss. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "check.h"
#include "lto-backend/cache/cache.h"
#include "lto-backend/cache/cache_masks.h"
#include "lto-backend/codegen/option_files.h"
#include "lto-backend/codegen/pipeline.h"
#include "support/diag.h"

static const char *triple = "x86_64-pc-linux-gnu";

/* A function returning the string literal @.str.<n> and adding `k`. */
static char *module_text(unsigned n, int k) {
  char *text = malloc(1024);
  snprintf(text, 1024,
           "target triple = \"x86_64-pc-linux-gnu\"\n"
           "@.str.%u = private unnamed_addr constant [3 x i8] c\"hi\\00\", align 1\n"
           "define ptr @name() {\n  ret ptr @.str.%u\n}\n"
           "define i32 @add(i32 %%x) {\n  %%y = add i32 %%x, %d\n  ret i32 %%y\n}\n",
           n, n, k);
  return text;
}

static LLVMModuleRef parse(LLVMContextRef context, const char *text) {
  LLVMMemoryBufferRef buffer =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "test.ll");
  LLVMModuleRef module = NULL;
  char *message = NULL;
  if (LLVMParseIRInContext(context, buffer, &module, &message)) {
    fprintf(stderr, "parse: %s\n", message);
    LLVMDisposeMessage(message);
    return NULL;
  }
  return module;
}

typedef struct cache_under_test {
  mtpc_options options;
  mtpc_bridge_settings *settings;
  mtpc_reporter reporter;
  mtpc_cache *cache;
} cache_under_test;

static int open_cache_with(cache_under_test *t, const char *dir, int opt_level,
                           const char *const *llvm_options, unsigned llvm_option_count) {
  mtpc_options_init(&t->options);
  t->options.cache_dir = dir;
  t->options.opt_level = opt_level;
  t->options.llvm_options = llvm_options;
  t->options.llvm_option_count = llvm_option_count;
  char *message = NULL;
  t->settings = mtpc_bridge_settings_create(&t->options, NULL, &message);
  free(message);
  if (!t->settings)
    return 1;
  mtpc_reporter_init(&t->reporter, &t->options);
  int out_of_memory = 0;
  t->cache = mtpc_cache_open(&t->options, t->settings, triple, NULL, &t->reporter,
                             &out_of_memory);
  return t->cache == NULL;
}

static int open_cache(cache_under_test *t, const char *dir, int opt_level) {
  return open_cache_with(t, dir, opt_level, NULL, 0);
}

static void close_cache(cache_under_test *t) {
  mtpc_cache_close(t->cache);
  mtpc_reporter_destroy(&t->reporter);
  mtpc_bridge_settings_free(t->settings);
}

/* The key of module_text(n, k), masked as the cache masks it. */
static mtpc_cache_key key_of(const cache_under_test *t, unsigned n, int k) {
  mtpc_cache_key key = {0, 0};
  LLVMContextRef context = LLVMContextCreate();
  char *text = module_text(n, k);
  LLVMModuleRef module = parse(context, text);
  free(text);
  mtpc_cache_masks *masks = NULL;
  if (module &&
      !mtpc_cache_mask_module(module, mtpc_cache_masks_names(t->cache),
                              mtpc_cache_masks_checksums(t->cache), &masks))
    CHECK(mtpc_cache_key_of(t->cache, module, NULL, NULL, &key) == 0);
  mtpc_cache_masks_free(masks);
  if (module)
    LLVMDisposeModule(module);
  LLVMContextDispose(context);
  return key;
}

static int same_key(mtpc_cache_key a, mtpc_cache_key b) {
  return a.high == b.high && a.low == b.low;
}

static void test_keys(const char *dir) {
  cache_under_test o2, o1;
  CHECK(open_cache(&o2, dir, 2) == 0);
  CHECK(open_cache(&o1, dir, 1) == 0);
  CHECK(mtpc_cache_masks_names(o2.cache));
  mtpc_cache_key base = key_of(&o2, 3, 7);
  CHECK(base.high || base.low);
  CHECK(same_key(base, key_of(&o2, 3, 7)));
  /* An edit of a body, and another optimization level, are other keys. */
  CHECK(!same_key(base, key_of(&o2, 3, 8)));
  CHECK(!same_key(base, key_of(&o1, 3, 7)));
  /* A literal added earlier in the file renumbered .str.3 to .str.4: the
   * masked name keys the same. */
  CHECK(same_key(base, key_of(&o2, 4, 7)));
  close_cache(&o1);
  close_cache(&o2);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* The key of module_text(3, 7) in a cache whose compiles take `option`. */
static mtpc_cache_key key_with_option(const char *dir, const char *option) {
  cache_under_test t;
  const char *options[] = {option};
  mtpc_cache_key key = {0, 0};
  CHECK(open_cache_with(&t, dir, 2, options, 1) == 0);
  if (t.cache)
    key = key_of(&t, 3, 7);
  close_cache(&t);
  return key;
}

/* An LLVM option whose value names a file (a remapping file, codegen data)
 * keys the file's contents: the same option with the file rewritten is
 * another key, and the first contents again the first key. */
static void test_option_files(const char *dir) {
  char path[4096], option[4200], missing[4200];
  snprintf(path, sizeof(path), "%s/remap.txt", dir);
  snprintf(option, sizeof(option), "-sample-profile-remapping-file=%s", path);
  snprintf(missing, sizeof(missing), "-sample-profile-remapping-file=%s/none.txt", dir);
  write_text(path, "name 3foo 3bar\n");
  mtpc_cache_key first = key_with_option(dir, option);
  write_text(path, "name 3baz 3bar\n");
  mtpc_cache_key rewritten = key_with_option(dir, option);
  CHECK(!same_key(first, rewritten));
  write_text(path, "name 3foo 3bar\n");
  CHECK(same_key(first, key_with_option(dir, option)));

  uint64_t digest = 0, again = 0;
  CHECK(mtpc_option_file_digest(option, &digest) == MTPC_OPTION_NAMES_FILE);
  CHECK(mtpc_option_file_digest(path, &again) == MTPC_OPTION_NAMES_FILE); /* a bare value */
  CHECK_EQ_U(digest, again);
  CHECK(mtpc_option_file_digest(missing, &digest) == MTPC_OPTION_NAMES_NO_FILE);
  CHECK(mtpc_option_file_digest("-enable-global-merge-func", &digest) ==
        MTPC_OPTION_NAMES_NO_FILE);
  /* A bare value is a whole path, '=' and all: a list's or a separate
   * option value's file in a directory named "a=b" is read, not "b". */
  char equals_dir[4096], equals_path[4200], equals_option[4300];
  snprintf(equals_dir, sizeof(equals_dir), "%s/a=b", dir);
  snprintf(equals_path, sizeof(equals_path), "%s/list.txt", equals_dir);
  snprintf(equals_option, sizeof(equals_option), "-sample-profile-remapping-file=%s", equals_path);
  CHECK(mkdir(equals_dir, 0700) == 0);
  write_text(equals_path, "name 3foo 3bar\n");
  CHECK(mtpc_option_file_digest(equals_path, &again) == MTPC_OPTION_NAMES_FILE);
  CHECK_EQ_U(digest, again);
  CHECK(mtpc_option_file_digest(equals_option, &again) == MTPC_OPTION_NAMES_FILE);
  CHECK_EQ_U(digest, again);
  unlink(equals_path);
  rmdir(equals_dir);
  char directory_option[4200];
  snprintf(directory_option, sizeof(directory_option), "-some-path=%s", dir);
  CHECK(mtpc_option_file_digest(directory_option, &digest) == MTPC_OPTION_NAMES_NO_FILE);
  if (getuid() != 0) { /* root reads a file of mode 0 */
    chmod(path, 0);
    CHECK(mtpc_option_file_digest(option, &digest) == MTPC_OPTION_FILE_UNREADABLE);
  }
  unlink(path);
}

/* The one entry file in `dir`, malloc'ed; NULL unless there is exactly one. */
static char *only_entry(const char *dir) {
  DIR *d = opendir(dir);
  char *found = NULL;
  int count = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    if (strncmp(e->d_name, "llvmcache-mtpc-", 15) != 0)
      continue;
    count++;
    free(found);
    size_t n = strlen(dir) + strlen(e->d_name) + 2;
    found = malloc(n);
    snprintf(found, n, "%s/%s", dir, e->d_name);
  }
  if (d)
    closedir(d);
  if (count != 1) {
    free(found);
    return NULL;
  }
  return found;
}

static int lookup(cache_under_test *t, const mtpc_cache_key *key, const char *object,
                  const char *dwo) {
  void *got = NULL, *got_dwo = NULL;
  size_t size = 0, dwo_size = 0;
  int hit = mtpc_cache_lookup(t->cache, key, &got, &size, &got_dwo, &dwo_size);
  int same = hit == 1 && size == strlen(object) && memcmp(got, object, size) == 0 &&
             (dwo ? got_dwo && dwo_size == strlen(dwo) && memcmp(got_dwo, dwo, dwo_size) == 0
                  : got_dwo == NULL);
  free(got);
  free(got_dwo);
  return hit == 1 ? (same ? 1 : 2) : hit;
}

static void test_entries(const char *dir) {
  cache_under_test t;
  CHECK(open_cache(&t, dir, 2) == 0);
  mtpc_cache_key key = {0x0123456789abcdefull, 0xfedcba9876543210ull};
  mtpc_cache_key other = {key.high, key.low ^ 1};
  const char *object = "an object's bytes", *dwo = "a .dwo's bytes";
  CHECK(lookup(&t, &key, object, dwo) == 0);
  mtpc_cache_store(t.cache, &key, object, strlen(object), dwo, strlen(dwo));
  CHECK(lookup(&t, &key, object, dwo) == 1);
  CHECK(lookup(&t, &other, object, dwo) == 0);

  char *entry = only_entry(dir);
  CHECK(entry != NULL);
  if (!entry) {
    close_cache(&t);
    return;
  }
  struct stat st;
  CHECK(stat(entry, &st) == 0);
  /* Truncated: a miss, then written again whole. */
  CHECK(truncate(entry, st.st_size - 3) == 0);
  CHECK(lookup(&t, &key, object, dwo) == 0);
  mtpc_cache_store(t.cache, &key, object, strlen(object), dwo, strlen(dwo));
  CHECK(lookup(&t, &key, object, dwo) == 1);
  /* One byte of the object flipped: a miss. */
  FILE *f = fopen(entry, "r+b");
  CHECK(f != NULL);
  if (f) {
    fseek(f, st.st_size - (long)strlen(dwo) - 1, SEEK_SET);
    fputc('X', f);
    fclose(f);
  }
  CHECK(lookup(&t, &key, object, dwo) == 0);
  /* Another key's entry under this key's name: a miss. */
  mtpc_cache_store(t.cache, &other, object, strlen(object), NULL, 0);
  char *other_entry = NULL;
  {
    size_t n = strlen(entry) + 1;
    other_entry = malloc(n);
    snprintf(other_entry, n, "%s", entry);
    char *hex = strrchr(other_entry, '-') + 1;
    snprintf(hex, 33, "%016llx%016llx", (unsigned long long)other.high,
             (unsigned long long)other.low);
  }
  CHECK(lookup(&t, &other, object, NULL) == 1);
  CHECK(rename(other_entry, entry) == 0);
  CHECK(lookup(&t, &key, object, NULL) == 0);
  free(other_entry);
  free(entry);
  close_cache(&t);
}

static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
    unlink(path);
  }
  if (d)
    closedir(d);
  rmdir(dir);
}

int main(void) {
  char keys_dir[] = "/tmp/mtpc-test-cache-XXXXXX";
  char entries_dir[] = "/tmp/mtpc-test-cache-XXXXXX";
  CHECK(mkdtemp(keys_dir) != NULL);
  CHECK(mkdtemp(entries_dir) != NULL);
  test_keys(keys_dir);
  test_option_files(keys_dir);
  test_entries(entries_dir);
  remove_tree(keys_dir);
  remove_tree(entries_dir);
  CHECK_SUMMARY();
}
