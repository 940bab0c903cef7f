// One distributed ThinLTO backend job (clang -c -fthinlto-index=) through
// LLVM's lto::thinBackend, for `mtpc backend`.
#include "thin_backend.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "pipeline.h"
#include "support/compat.h"
#include "support/cxx_util.h"
#include "support/llvm_options.h"
#include "support/llvm_support.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/LTO/Config.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using mtpc_util::copy_bytes;
using mtpc_util::copy_message;

static mtpc_bridge_backend_outcome failed(const std::string &text, char **message) {
  *message = copy_message(text);
  return MTPC_BACKEND_FAILED;
}

// The modules the index imports from, read by the paths it records.
struct import_sources {
  std::vector<std::unique_ptr<MemoryBuffer>> buffers;
  MapVector<StringRef, BitcodeModule> modules;
};

// Empty on success, else what went wrong.
static std::string read_import_sources(const char *index, const mtpc_compat::import_list &imports,
                                       import_sources &sources) {
  for (StringRef path : imports.source_modules()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
    if (!buffer)
      return std::string(index) + ": cannot read '" + path.str() +
             "', which it imports from: " + buffer.getError().message();
    Expected<BitcodeModule> bitcode = lto::findThinLTOModule(**buffer);
    if (!bitcode)
      return path.str() + ": " + toString(bitcode.takeError());
    sources.modules.insert({path, *bitcode});
    sources.buffers.push_back(std::move(*buffer));
  }
  return "";
}

// What clang's backend sets for a -fthinlto-index= compile (BackendUtil.cpp);
// clang's driver passes -faddrsig for ELF.
static bool configure(lto::Config &conf, const mtpc_bridge_backend_job &job, const Module &m,
                      std::string &why) {
  if (!mtpc_pipeline::fill_config(conf, job.options, why))
    return false;
  const Triple triple = mtpc_compat::module_triple(m);
  conf.Options.EmitAddrsig = job.addrsig < 0 ? triple.isOSBinFormatELF() : job.addrsig != 0;
  conf.Options.EmitCallSiteInfo =
      conf.Options.EmitCallSiteInfo && mtpc_pipeline::describes_call_sites(triple);
  // LLVM's backend, which compiles a module too small to split, compresses
  // as clang's does; a split module's partitions never do (pipeline.cpp).
  conf.Options.MCOptions.CompressDebugSections =
      mtpc_compression_type(job.options->compress_debug_sections);
  return true;
}

static mtpc_bridge_backend_outcome run_job(const mtpc_bridge_backend_job *job, void **object,
                                           size_t *object_size, char **triple, char **message) {
  // The caller exits after writing the object, so, like clang (-disable-free),
  // the module, its context and the index are left to the exit: freeing them
  // takes a serial fraction of a second at the end of the job.
  LLVMContext &context = *new LLVMContext;
  SMDiagnostic diagnostic;
  std::unique_ptr<Module> m = parseIRFile(job->input, diagnostic, context);
  if (!m)
    return failed(std::string(job->input) + ": " + diagnostic.getMessage().str(), message);
  if (job->triple)
    mtpc_compat::set_triple(*m, job->triple);
  *triple = copy_message(mtpc_compat::module_triple(*m).str());
  Expected<std::unique_ptr<ModuleSummaryIndex>> index =
      getModuleSummaryIndexForFile(job->index, /*IgnoreEmptyThinLTOIndexFile=*/true);
  if (!index)
    return failed(std::string(job->index) + ": " + toString(index.takeError()), message);
  if (!*index)
    return MTPC_BACKEND_NO_INDEX;
  if ((*index)->skipModuleByDistributedBackend())
    return MTPC_BACKEND_SKIP;

  mtpc_compat::import_list imports;
  if (!lto::initImportList(*m, **index, imports.map))
    return failed(std::string(job->index) + ": cannot compute the import list", message);
  import_sources sources;
  std::string problem = read_import_sources(job->index, imports, sources);
  if (!problem.empty())
    return failed(problem, message);
  StringMap<GVSummaryMapTy> defined;
  (*index)->collectDefinedGVSummariesPerModule(defined);

  lto::Config conf;
  std::string why;
  if (!configure(conf, *job, *m, why))
    return failed(why, message);
  SmallString<0> stock_object;
  char *own_object = nullptr;
  size_t own_size = 0;
  std::string hook_error;
  conf.PostImportModuleHook = [&](unsigned, const Module &imported) {
    void *bytes = nullptr;
    char *text = nullptr;
    int done = job->after_import(job->arg, wrap(const_cast<Module *>(&imported)), &conf,
                                 index->get(), &bytes, &own_size, &text);
    if (done < 0)
      hook_error = text ? text : "compiling the module failed";
    std::free(text);
    own_object = static_cast<char *>(bytes);
    return done == 0;
  };
  auto add_stream = [&](size_t, const Twine &) -> Expected<std::unique_ptr<CachedFileStream>> {
    return std::make_unique<CachedFileStream>(std::make_unique<raw_svector_ostream>(stock_object));
  };
  Error err = mtpc_compat::thin_backend(conf, add_stream, *m, **index, imports,
                                        defined[m->getModuleIdentifier()], &sources.modules);
  if (err || !hook_error.empty()) {
    std::string text = hook_error.empty() ? toString(std::move(err)) : hook_error;
    consumeError(std::move(err));
    std::free(own_object);
    return failed(text, message);
  }
  *object = own_object ? own_object : copy_bytes(stock_object, object_size);
  if (own_object)
    *object_size = own_size;
  if (!*object)
    return failed("out of memory", message);
  m.release();
  index->release();
  return MTPC_BACKEND_COMPILED;
}

// The whole job (import as well as the compile) sees the job's LLVM options.
extern "C" mtpc_bridge_backend_outcome
mtpc_bridge_thin_backend(const mtpc_bridge_backend_job *job, void **object, size_t *object_size,
                         char **triple, char **message) {
  mtpc_init_llvm();
  const mtpc_options *o = job->options;
  if (mtpc_llvm_options_enter(o->llvm_options, o->llvm_option_count, message))
    return MTPC_BACKEND_FAILED;
  mtpc_bridge_backend_outcome outcome = run_job(job, object, object_size, triple, message);
  mtpc_llvm_options_leave();
  return outcome;
}
