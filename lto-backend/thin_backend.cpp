#include "thin_backend.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "compat.h"
#include "cxx_util.h"
#include "pipeline.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/LTO/Config.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using mtpc_util::copy_bytes;
using mtpc_util::copy_message;

static std::string or_empty(const char *s) { return s ? s : ""; }

// A context-sensitive profile is one clang's backend reads (BackendUtil.cpp:
// hasProfileCSIRUse); any other -fprofile-use= profile was read before.
static bool is_cs_profile(const char *path, std::string &problem) {
  auto fs = vfs::getRealFileSystem();
  Expected<std::unique_ptr<IndexedInstrProfReader>> reader = IndexedInstrProfReader::create(path, *fs);
  if (!reader) {
    problem = std::string(path) + ": " + toString(reader.takeError());
    return false;
  }
  return (*reader)->hasCSIRLevelProfile();
}

// What clang's backend sets for a -fthinlto-index= compile (BackendUtil.cpp).
static bool configure_backend(lto::Config &conf, const mtpc_bridge_backend_job &job,
                              const Module &m, std::string &problem) {
  conf.CPU = or_empty(job.cpu);
  conf.Options.FunctionSections = job.function_sections != 0;
  conf.Options.DataSections = job.data_sections != 0;
  conf.Options.UseInitArray = true;
  // clang's driver passes -faddrsig for ELF, and a relocation model that the
  // module's "PIC Level" records.
  conf.Options.EmitAddrsig =
      job.addrsig < 0 ? mtpc_compat::module_triple(m).isOSBinFormatELF() : job.addrsig != 0;
  conf.RelocModel = mtpc_pipeline::reloc_model(job.reloc);
  if (!conf.RelocModel)
    conf.RelocModel = m.getPICLevel() == PICLevel::NotPIC ? Reloc::Static : Reloc::PIC_;
  conf.CGOptLevel = mtpc_pipeline::codegen_level(job.opt_level);
  conf.OptLevel = job.opt_level;
  conf.PTO.LoopVectorization = job.opt_level > 1;
  conf.PTO.SLPVectorization = job.opt_level > 1;
  conf.CGFileType = CodeGenFileType::ObjectFile;
  conf.SampleProfile = or_empty(job.sample_profile);
  if (job.cs_profile_generate) {
    conf.RunCSIRInstr = true;
    conf.CSIRProfile = or_empty(job.cs_profile_output);
  } else if (job.profile_use && is_cs_profile(job.profile_use, problem)) {
    conf.CSIRProfile = job.profile_use;
  }
  conf.SplitDwarfFile = or_empty(job.split_dwarf_file);
  conf.SplitDwarfOutput = or_empty(job.split_dwarf_output);
  return problem.empty();
}

extern "C" mtpc_bridge_backend_outcome
mtpc_bridge_thin_backend(const mtpc_bridge_backend_job *job, void **object, size_t *object_size,
                         char **triple, char **message) {
  // The caller exits after writing the object, so, like clang (-disable-free),
  // the module, its context and the index are left to the exit: freeing them
  // takes a serial fraction of a second at the end of the job.
  LLVMContext &context = *new LLVMContext;
  SMDiagnostic diagnostic;
  std::unique_ptr<Module> m = parseIRFile(job->input, diagnostic, context);
  if (!m) {
    *message = copy_message(std::string(job->input) + ": " + diagnostic.getMessage().str());
    return MTPC_BACKEND_FAILED;
  }
  if (job->triple)
    mtpc_compat::set_triple(*m, job->triple);
  *triple = copy_message(mtpc_compat::module_triple(*m).str());
  Expected<std::unique_ptr<ModuleSummaryIndex>> index =
      getModuleSummaryIndexForFile(job->index, /*IgnoreEmptyThinLTOIndexFile=*/true);
  if (!index) {
    *message = copy_message(std::string(job->index) + ": " + toString(index.takeError()));
    return MTPC_BACKEND_FAILED;
  }
  if (!*index)
    return MTPC_BACKEND_NO_INDEX;
  if ((*index)->skipModuleByDistributedBackend())
    return MTPC_BACKEND_SKIP;

  mtpc_compat::import_list imports;
  if (!lto::initImportList(*m, **index, imports.map)) {
    *message = copy_message(std::string(job->index) + ": cannot compute the import list");
    return MTPC_BACKEND_FAILED;
  }
  std::vector<std::unique_ptr<MemoryBuffer>> import_buffers;
  MapVector<StringRef, BitcodeModule> import_modules;
  for (StringRef path : imports.source_modules()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
    if (!buffer) {
      *message = copy_message(std::string(job->index) + ": cannot read '" + path.str() +
                              "', which it imports from: " + buffer.getError().message());
      return MTPC_BACKEND_FAILED;
    }
    Expected<BitcodeModule> bitcode = lto::findThinLTOModule(**buffer);
    if (!bitcode) {
      *message = copy_message(path.str() + ": " + toString(bitcode.takeError()));
      return MTPC_BACKEND_FAILED;
    }
    import_modules.insert({path, *bitcode});
    import_buffers.push_back(std::move(*buffer));
  }
  StringMap<GVSummaryMapTy> defined;
  (*index)->collectDefinedGVSummariesPerModule(defined);

  lto::Config conf;
  std::string problem;
  if (!configure_backend(conf, *job, *m, problem)) {
    *message = copy_message(problem);
    return MTPC_BACKEND_FAILED;
  }
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
                               defined[m->getModuleIdentifier()], &import_modules);
  if (err || !hook_error.empty()) {
    *message = copy_message(hook_error.empty() ? toString(std::move(err)) : hook_error);
    consumeError(std::move(err));
    std::free(own_object);
    return MTPC_BACKEND_FAILED;
  }
  *object = own_object ? own_object : copy_bytes(stock_object, object_size);
  if (own_object)
    *object_size = own_size;
  if (!*object) {
    *message = copy_message("out of memory");
    return MTPC_BACKEND_FAILED;
  }
  m.release();
  index->release();
  return MTPC_BACKEND_COMPILED;
}
