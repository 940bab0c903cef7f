// The C++ half of mtpc: small extern "C" functions for what LLVM-C lacks.
// Everything that depends on the LLVM version is here.
#include "bridge.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <cerrno>
#include <fcntl.h>
#include <optional>
#include <unistd.h>
#include <mutex>
#include <string>

#include "lld/Common/Driver.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/LTO/Config.h"
#include "llvm/LTO/LTOBackend.h"
#include "llvm/Support/Caching.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Support/Jobserver.h"
#endif
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/IPO/FunctionImport.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/Binary.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/Target/TargetMachine.h"

LLD_HAS_DRIVER(elf)

using namespace llvm;

// What differs between LLVM 19 and 22 (besides the includes above and the
// jobserver client at the end).
#if LLVM_VERSION_MAJOR >= 22
using triple_arg = Triple;
struct import_list {
  FunctionImporter::ImportIDTable ids;
  FunctionImporter::ImportMapTy map{ids};
  SmallVector<StringRef, 0> source_modules() const { return map.getSourceModules(); }
};
#else
using triple_arg = StringRef;
struct import_list {
  FunctionImporter::ImportMapTy map;
  SmallVector<StringRef, 0> source_modules() const {
    SmallVector<StringRef, 0> paths;
    for (const auto &entry : map)
      paths.push_back(entry.first);
    llvm::sort(paths);
    return paths;
  }
};
#endif

static DICompositeType *declaration_of(DICompositeType *type) {
  return DICompositeType::get(type->getContext(), type->getTag(), type->getName(), type->getFile(),
                              type->getLine(), type->getScope(), nullptr, uint64_t(0), 0, uint64_t(0),
                              DINode::FlagFwdDecl, nullptr, type->getRuntimeLang(),
#if LLVM_VERSION_MAJOR >= 22
                              /*EnumKind=*/std::nullopt,
#endif
                              nullptr);
}

static Error run_thin_backend(const lto::Config &conf, AddStreamFn add_stream, Module &m,
                              const ModuleSummaryIndex &index, const import_list &imports,
                              const GVSummaryMapTy &defined,
                              MapVector<StringRef, BitcodeModule> *modules) {
#if LLVM_VERSION_MAJOR >= 22
  return lto::thinBackend(conf, 0, add_stream, m, index, imports.map, defined, modules,
                          /*CodeGenOnly=*/false);
#else
  return lto::thinBackend(conf, 0, add_stream, m, index, imports.map, defined, modules);
#endif
}

static char *copy_message(const std::string &text) {
  char *out = static_cast<char *>(std::malloc(text.size() + 1));
  if (out)
    std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

// A malloc'ed copy, or NULL when memory is out.
static void *copy_bytes(StringRef bytes, size_t *size) {
  void *copy = std::malloc(bytes.size() ? bytes.size() : 1);
  if (!copy)
    return nullptr;
  std::memcpy(copy, bytes.data(), bytes.size());
  *size = bytes.size();
  return copy;
}

static int fail(Error err, char **message) {
  if (message)
    *message = copy_message(toString(std::move(err)));
  else
    consumeError(std::move(err));
  return 1;
}

extern "C" void mtpc_bridge_delete_body(LLVMValueRef function) {
  unwrap<Function>(function)->deleteBody();
}

extern "C" int mtpc_bridge_materialize_all(LLVMModuleRef module, char **message) {
  if (Error err = unwrap(module)->materializeAll())
    return fail(std::move(err), message);
  return 0;
}

extern "C" int mtpc_bridge_materialize_bodies(LLVMModuleRef module, char **message) {
  Module &m = *unwrap(module);
  if (Error err = m.materializeMetadata())
    return fail(std::move(err), message);
  for (Function &f : m)
    if (Error err = f.materialize())
      return fail(std::move(err), message);
  return 0;
}

extern "C" LLVMValueRef mtpc_bridge_replace_with_declaration(LLVMValueRef global) {
  auto *gv = unwrap<GlobalValue>(global);
  Module &m = *gv->getParent();
  std::string name = gv->getName().str();
  gv->setName(name + ".mtpc.replaced");
  GlobalValue *decl;
  if (auto *fn_type = dyn_cast<FunctionType>(gv->getValueType()))
    decl = Function::Create(fn_type, GlobalValue::ExternalLinkage, gv->getAddressSpace(), name, &m);
  else
    decl = new GlobalVariable(m, gv->getValueType(), false, GlobalValue::ExternalLinkage,
                              nullptr, name, nullptr, gv->getThreadLocalMode(),
                              gv->getAddressSpace());
  decl->setVisibility(gv->getVisibility());
  decl->setDSOLocal(gv->isDSOLocal());
  decl->setUnnamedAddr(gv->getUnnamedAddr());
  decl->setThreadLocalMode(gv->getThreadLocalMode());
  gv->replaceAllUsesWith(decl);
  if (auto *alias = dyn_cast<GlobalAlias>(gv))
    alias->eraseFromParent();
  else
    cast<GlobalIFunc>(gv)->eraseFromParent();
  return wrap(decl);
}

extern "C" LLVMValueRef mtpc_bridge_make_declaration(LLVMValueRef global) {
  GlobalValue *gv = unwrap<GlobalValue>(global);
  if (isa<GlobalAlias>(gv) || isa<GlobalIFunc>(gv))
    return mtpc_bridge_replace_with_declaration(global);
  if (auto *fn = dyn_cast<Function>(gv)) {
    fn->deleteBody();
    fn->setComdat(nullptr);
  } else {
    auto *var = cast<GlobalVariable>(gv);
    var->setInitializer(nullptr);
    var->setComdat(nullptr);
    var->setExternallyInitialized(false);
  }
  gv->setLinkage(GlobalValue::ExternalLinkage);
  return global;
}

extern "C" void mtpc_bridge_trim_debug_info(LLVMModuleRef module, int primary) {
  Module &m = *unwrap(module);
  SmallPtrSet<Metadata *, 32> defined;
  SmallVector<DIGlobalVariableExpression *, 2> attached;
  for (GlobalVariable &gv : m.globals()) {
    if (gv.isDeclaration()) {
      gv.eraseMetadata(LLVMContext::MD_dbg);
      continue;
    }
    attached.clear();
    gv.getDebugInfo(attached);
    defined.insert(attached.begin(), attached.end());
  }
  for (DICompileUnit *cu : m.debug_compile_units()) {
    SmallVector<Metadata *, 64> kept;
    for (DIGlobalVariableExpression *e : cu->getGlobalVariables())
      if (defined.count(e))
        kept.push_back(e);
    cu->replaceGlobalVariables(MDTuple::get(m.getContext(), kept));
    if (!primary) {
      cu->replaceEnumTypes(MDTuple::get(m.getContext(), {}));
      cu->replaceRetainedTypes(MDTuple::get(m.getContext(), {}));
    }
  }
}

// A C struct or union that gdb can find by name from a declaration: named,
// at file scope, and without an ODR identifier (C++ types have type units).
static bool is_shareable(const DICompositeType *type) {
  unsigned tag = type->getTag();
  if (tag != dwarf::DW_TAG_structure_type && tag != dwarf::DW_TAG_union_type)
    return false;
  if (type->getName().empty() || !type->getIdentifier().empty() || type->isForwardDecl())
    return false;
  const DIScope *scope = type->getScope();
  return !scope || isa<DIFile>(scope) || isa<DICompileUnit>(scope);
}

static std::string type_key(const DICompositeType *type) {
  std::string key = type->getTag() == dwarf::DW_TAG_union_type ? "union " : "struct ";
  key += type->getName();
  if (const DIFile *file = type->getFile()) {
    key += " at ";
    if (!file->getDirectory().empty() && !file->getFilename().starts_with("/"))
      key += file->getDirectory().str() + "/";
    key += file->getFilename().str() + ":" + std::to_string(type->getLine());
  }
  return key;
}

struct mtpc_bridge_type_walk {
  DenseSet<const MDNode *> seen;
  SmallVector<const MDNode *, 64> stack;
};

// Every node below `root` not seen before, except compile units (which list
// the whole module's globals and types); calls found() on shareable types.
template <typename Found> static void walk_types(mtpc_bridge_type_walk &w, const MDNode *root, Found found) {
  if (!root || !w.seen.insert(root).second)
    return;
  w.stack.push_back(root);
  while (!w.stack.empty()) {
    const MDNode *node = w.stack.pop_back_val();
    if (auto *type = dyn_cast<DICompositeType>(node); type && is_shareable(type))
      found(const_cast<DICompositeType *>(type));
    for (const MDOperand &op : node->operands()) {
      auto *child = dyn_cast_or_null<MDNode>(op.get());
      if (child && !isa<DICompileUnit>(child) && w.seen.insert(child).second)
        w.stack.push_back(child);
    }
  }
}

template <typename Found> static void walk_global_types(mtpc_bridge_type_walk &w, GlobalValue *gv, Found found) {
  if (auto *f = dyn_cast<Function>(gv)) {
    walk_types(w, f->getSubprogram(), found);
  } else if (auto *var = dyn_cast<GlobalVariable>(gv)) {
    SmallVector<DIGlobalVariableExpression *, 1> attached;
    var->getDebugInfo(attached);
    for (DIGlobalVariableExpression *e : attached)
      walk_types(w, e, found);
  }
}

extern "C" mtpc_bridge_type_walk *mtpc_bridge_type_walk_create(void) { return new mtpc_bridge_type_walk; }

extern "C" void mtpc_bridge_type_walk_free(mtpc_bridge_type_walk *walk) { delete walk; }

extern "C" void mtpc_bridge_walk_debug_types(mtpc_bridge_type_walk *walk, LLVMValueRef global,
                                             mtpc_bridge_type_found *found, void *arg) {
  walk_global_types(*walk, unwrap<GlobalValue>(global),
                    [&](DICompositeType *type) { found(arg, type_key(type).c_str()); });
}

// Everything in the partition that can describe a type: the units' lists,
// every function's and variable's debug info, and the subprograms and types
// reached only from instructions (inlined code, local variables).
static std::vector<DICompositeType *> shareable_types(Module &m) {
  mtpc_bridge_type_walk w;
  std::vector<DICompositeType *> types;
  auto found = [&](DICompositeType *type) { types.push_back(type); };
  DebugInfoFinder finder;
  finder.processModule(m);
  for (DICompileUnit *cu : finder.compile_units())
    walk_types(w, cu, found);
  for (GlobalValue &gv : m.global_values())
    walk_global_types(w, &gv, found);
  for (DISubprogram *sp : finder.subprograms())
    walk_types(w, sp, found);
  for (DIType *type : finder.types())
    walk_types(w, type, found);
  return types;
}

static void remap_module_metadata(Module &m, ValueToValueMapTy &map) {
  ValueMapper mapper(map, RF_ReuseAndMutateDistinctMDs | RF_IgnoreMissingLocals);
  for (Function &f : m)
    mapper.remapFunction(f);
  for (GlobalVariable &gv : m.globals())
    mapper.remapGlobalObjectMetadata(gv);
  for (NamedMDNode &named : m.named_metadata())
    for (unsigned i = 0; i < named.getNumOperands(); i++)
      named.setOperand(i, mapper.mapMDNode(*named.getOperand(i)));
}

static void retain_types(Module &m, ArrayRef<Metadata *> types) {
  DICompileUnit *cu = *m.debug_compile_units_begin();
  SmallVector<Metadata *, 64> retained(cu->getRetainedTypes().begin(), cu->getRetainedTypes().end());
  SmallPtrSet<Metadata *, 32> present(retained.begin(), retained.end());
  for (Metadata *type : types)
    if (present.insert(type).second)
      retained.push_back(type);
  cu->replaceRetainedTypes(MDTuple::get(m.getContext(), retained));
}

extern "C" void mtpc_bridge_share_debug_types(LLVMModuleRef module, uint32_t partition,
                                              mtpc_bridge_type_home *home_of, void *arg) {
  Module &m = *unwrap(module);
  if (m.debug_compile_units().empty())
    return;
  ValueToValueMapTy declarations;
  SmallVector<Metadata *, 64> homed;
  for (DICompositeType *type : shareable_types(m)) {
    uint32_t home = home_of(arg, type_key(type).c_str());
    if (home == partition)
      homed.push_back(type);
    else if (home != UINT32_MAX)
      declarations.MD()[type].reset(declaration_of(type));
  }
  if (!declarations.MD().empty())
    remap_module_metadata(m, declarations);
  if (!homed.empty())
    retain_types(m, homed);
}

extern "C" void mtpc_bridge_strip_debug_info(LLVMValueRef function) {
  stripDebugInfo(*unwrap<Function>(function));
}

static CodeGenOptLevel codegen_level(int level) {
  static const CodeGenOptLevel levels[] = {CodeGenOptLevel::None, CodeGenOptLevel::Less,
                                           CodeGenOptLevel::Default, CodeGenOptLevel::Aggressive};
  return levels[level & 3];
}

static std::optional<Reloc::Model> reloc_model(int reloc) {
  static const Reloc::Model relocs[] = {Reloc::Static, Reloc::Static, Reloc::PIC_,
                                        Reloc::DynamicNoPIC};
  if (reloc >= 1 && reloc <= 3)
    return relocs[reloc];
  return std::nullopt;
}

// What clang's backend sets for a -fthinlto-index= compile (BackendUtil.cpp).
static void configure_backend(lto::Config &conf, const mtpc_bridge_backend_job &job,
                              const Module &m) {
  const mtpc_bridge_target &t = job.target;
  conf.CPU = t.cpu ? t.cpu : "";
  if (t.features && *t.features)
    for (StringRef feature : llvm::split(StringRef(t.features), ','))
      conf.MAttrs.push_back(feature.str());
  conf.Options.FunctionSections = t.function_sections != 0;
  conf.Options.DataSections = t.data_sections != 0;
  conf.Options.UseInitArray = true;
  // clang's driver passes -faddrsig for ELF, and a relocation model that the
  // module's "PIC Level" records.
  conf.Options.EmitAddrsig =
      job.addrsig < 0 ? Triple(m.getTargetTriple()).isOSBinFormatELF() : job.addrsig != 0;
  conf.RelocModel = reloc_model(t.reloc);
  if (!conf.RelocModel)
    conf.RelocModel = m.getPICLevel() == PICLevel::NotPIC ? Reloc::Static : Reloc::PIC_;
  conf.CGOptLevel = codegen_level(t.codegen_level);
  conf.OptLevel = job.opt_level;
  conf.PTO.LoopVectorization = job.opt_level > 1;
  conf.PTO.SLPVectorization = job.opt_level > 1;
  conf.CGFileType = CodeGenFileType::ObjectFile;
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
  if (job->target.triple)
    m->setTargetTriple(triple_arg(job->target.triple));
  *triple = copy_message(Triple(m->getTargetTriple()).str());
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

  import_list imports;
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
  configure_backend(conf, *job, *m);
  SmallString<0> stock_object;
  char *own_object = nullptr;
  size_t own_size = 0;
  std::string hook_error;
  conf.PostImportModuleHook = [&](unsigned, const Module &imported) {
    void *bytes = nullptr;
    char *text = nullptr;
    int done = job->after_import(job->arg, wrap(const_cast<Module *>(&imported)), &conf.Options,
                                 &bytes, &own_size, &text);
    if (done < 0)
      hook_error = text ? text : "compiling the module failed";
    std::free(text);
    own_object = static_cast<char *>(bytes);
    return done == 0;
  };
  auto add_stream = [&](size_t, const Twine &) -> Expected<std::unique_ptr<CachedFileStream>> {
    return std::make_unique<CachedFileStream>(std::make_unique<raw_svector_ostream>(stock_object));
  };
  Error err = run_thin_backend(conf, add_stream, *m, **index, imports,
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

extern "C" int mtpc_bridge_triple_is_elf(const char *triple) {
  return Triple(triple).isOSBinFormatELF();
}

extern "C" int mtpc_bridge_erase_if_unused(LLVMValueRef global) {
  auto *gv = unwrap<GlobalValue>(global);
  gv->removeDeadConstantUsers();
  if (!gv->use_empty())
    return 0;
  gv->eraseFromParent();
  return 1;
}

extern "C" int mtpc_bridge_module_is_pic(LLVMModuleRef module) {
  return unwrap(module)->getPICLevel() != PICLevel::NotPIC;
}

extern "C" LLVMTargetMachineRef mtpc_bridge_create_target_machine(const mtpc_bridge_target *t,
                                                                  LLVMModuleRef module,
                                                                  char **message) {
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple_arg(t->triple), error);
  if (!target) {
    if (message)
      *message = copy_message("unknown target '" + std::string(t->triple) + "': " + error);
    return nullptr;
  }
  TargetOptions options;
  if (t->target_options) {
    options = *static_cast<const TargetOptions *>(t->target_options);
  } else {
    options.FunctionSections = t->function_sections != 0;
    options.DataSections = t->data_sections != 0;
    // TargetOptions() says .ctors; clang, llc and LLVM's LTO say .init_array.
    options.UseInitArray = true;
  }
  Module *m = unwrap(module);
  std::optional<CodeModel::Model> code_model;
  static const CodeModel::Model models[] = {CodeModel::Tiny, CodeModel::Small, CodeModel::Kernel,
                                            CodeModel::Medium, CodeModel::Large};
  if (t->code_model > 0 && t->code_model <= 5)
    code_model = models[t->code_model - 1];
  else
    code_model = m->getCodeModel();
  std::optional<Reloc::Model> reloc = reloc_model(t->reloc);
  TargetMachine *tm = target->createTargetMachine(triple_arg(t->triple), t->cpu ? t->cpu : "",
                                                  t->features ? t->features : "", options, reloc,
                                                  code_model, codegen_level(t->codegen_level));
  if (!tm) {
    if (message)
      *message = copy_message("cannot create a target machine for '" + std::string(t->triple) + "'");
    return nullptr;
  }
  if (std::optional<uint64_t> threshold = m->getLargeDataThreshold())
    tm->setLargeDataThreshold(*threshold);
  return reinterpret_cast<LLVMTargetMachineRef>(tm);
}

extern "C" int mtpc_bridge_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine,
                                    unsigned opt_level, const char *const *plugins,
                                    unsigned plugin_count, char **message) {
  Module &m = *unwrap(module);
  TargetMachine *tm = reinterpret_cast<TargetMachine *>(machine);
  PipelineTuningOptions pto;
  pto.LoopVectorization = opt_level > 1;
  pto.SLPVectorization = opt_level > 1;
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassInstrumentationCallbacks pic;
  StandardInstrumentations si(m.getContext(), /*DebugLogging=*/false);
  si.registerCallbacks(pic, &mam);
  PassBuilder pb(tm, pto, std::nullopt, &pic);
  for (unsigned i = 0; i < plugin_count; i++) {
    Expected<PassPlugin> plugin = PassPlugin::Load(plugins[i]);
    if (!plugin)
      return fail(plugin.takeError(), message);
    plugin->registerPassBuilderCallbacks(pb);
  }
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  static const OptimizationLevel levels[] = {OptimizationLevel::O0, OptimizationLevel::O1,
                                             OptimizationLevel::O2, OptimizationLevel::O3};
  ModulePassManager mpm = pb.buildThinLTODefaultPipeline(levels[opt_level & 3], nullptr);
  mpm.run(m, mam);
  return 0;
}

static std::mutex lld_mutex;

extern "C" int mtpc_bridge_link_relocatable(const char *const *inputs, size_t input_count,
                                            const char *output, char **message) {
  std::vector<const char *> args = {"ld.lld", "-r", "-o", output};
  args.insert(args.end(), inputs, inputs + input_count);
  std::string out_text, err_text;
  raw_string_ostream out(out_text), err(err_text);
  std::lock_guard<std::mutex> lock(lld_mutex);
  lld::Result result = lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
  if (result.retCode == 0)
    return 0;
  err.flush();
  std::string text = err_text.empty() ? "ld.lld -r failed" : err_text;
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  if (message)
    *message = copy_message(text);
  return 1;
}

extern "C" int mtpc_bridge_localize_symbols(const void *object, size_t size,
                                            const char *const *names,
                                            const char *const *new_names, size_t count,
                                            void **result, size_t *result_size,
                                            char **message) {
  objcopy::ConfigManager config;
  objcopy::CommonConfig &common = config.Common;
  auto no_recoverable = [](Error err) { return err; };
  objcopy::NameMatcher promoted;
  for (size_t i = 0; i < count; i++) {
    if (Error err = promoted.addMatcher(
            objcopy::NameOrPattern::create(names[i], objcopy::MatchStyle::Literal, no_recoverable)))
      return fail(std::move(err), message);
    common.SymbolsToRename[names[i]] = new_names[i];
  }
  common.SymbolsToLocalize = promoted;
  // Hidden was only the promotion's doing; a serial compile's locals are default.
  config.ELF.SymbolsToSetVisibility.emplace_back(std::move(promoted), ELF::STV_DEFAULT);
  MemoryBufferRef input(StringRef(static_cast<const char *>(object), size), "merged.o");
  Expected<std::unique_ptr<object::Binary>> binary = object::createBinary(input);
  if (!binary)
    return fail(binary.takeError(), message);
  SmallVector<char, 0> bytes;
  raw_svector_ostream out(bytes);
  if (Error err = objcopy::executeObjcopyOnBinary(config, **binary, out))
    return fail(std::move(err), message);
  *result = copy_bytes(StringRef(bytes.data(), bytes.size()), result_size);
  if (!*result)
    return fail(createStringError(std::errc::not_enough_memory, "out of memory"), message);
  return 0;
}

static unsigned time_trace_granularity = 500;

extern "C" void mtpc_bridge_time_trace_init(unsigned granularity_us) {
  time_trace_granularity = granularity_us;
  timeTraceProfilerInitialize(granularity_us, "mtpc");
}

extern "C" int mtpc_bridge_time_trace_active(void) { return timeTraceProfilerEnabled(); }

extern "C" void mtpc_bridge_time_trace_thread_init(void) {
  if (!timeTraceProfilerEnabled())
    timeTraceProfilerInitialize(time_trace_granularity, "mtpc");
}

extern "C" void mtpc_bridge_time_trace_thread_finish(void) {
  if (timeTraceProfilerEnabled())
    timeTraceProfilerFinishThread();
}

extern "C" void mtpc_bridge_time_trace_begin(const char *name, const char *detail) {
  if (timeTraceProfilerEnabled())
    timeTraceProfilerBegin(name, detail ? detail : "");
}

extern "C" void mtpc_bridge_time_trace_end(void) {
  if (timeTraceProfilerEnabled())
    timeTraceProfilerEnd();
}

extern "C" int mtpc_bridge_time_trace_write(const char *path, char **message) {
  if (!timeTraceProfilerEnabled())
    return 0;
  std::error_code ec;
  raw_fd_ostream out(path, ec, sys::fs::OF_Text);
  if (ec)
    return fail(errorCodeToError(ec), message);
  timeTraceProfilerWrite(out);
  timeTraceProfilerCleanup();
  return 0;
}

extern "C" const char *mtpc_bridge_llvm_version(void) { return LLVM_VERSION_STRING; }

// GNU make's jobserver as MAKEFLAGS names it (make may repeat the option: the
// last one counts): a FIFO, or a pipe's two descriptors, which make 4.3
// closes for recipes it does not know to be recursive.
struct jobserver_auth {
  std::string fifo;
  int read_fd = -1, write_fd = -1;
};

static std::optional<jobserver_auth> makeflags_jobserver(void) {
  const char *flags = std::getenv("MAKEFLAGS");
  StringRef value;
  for (StringRef word : llvm::split(StringRef(flags ? flags : ""), ' '))
    if (word.consume_front("--jobserver-auth=") || word.consume_front("--jobserver-fds="))
      value = word;
  jobserver_auth auth;
  if (value.consume_front("fifo:")) {
    auth.fifo = value.str();
    return auth;
  }
  auto [read_fd, write_fd] = value.split(',');
  if (read_fd.getAsInteger(10, auth.read_fd) || write_fd.getAsInteger(10, auth.write_fd) ||
      fcntl(auth.read_fd, F_GETFD) == -1 || fcntl(auth.write_fd, F_GETFD) == -1)
    return std::nullopt;
  return auth;
}

#if LLVM_VERSION_MAJOR >= 22
// LLVM's client. Asked again until found: `mtpc distribute` may make a
// jobserver and name it later. Looked for first, quietly: LLVM's client warns
// on stderr when MAKEFLAGS names none.
static JobserverClient *jobserver(void) {
  static std::atomic<JobserverClient *> client{nullptr};
  if (!client && makeflags_jobserver())
    client = JobserverClient::getInstance();
  return client;
}

extern "C" int mtpc_bridge_jobserver_present(void) { return jobserver() != nullptr; }

extern "C" int mtpc_bridge_jobserver_try_acquire(void) {
  JobSlot slot = jobserver()->tryAcquire();
  if (!slot.isValid())
    return -1;
  return slot.isImplicit() ? MTPC_BRIDGE_IMPLICIT_SLOT : slot.getExplicitValue();
}

extern "C" void mtpc_bridge_jobserver_release(int token) {
  jobserver()->release(token == MTPC_BRIDGE_IMPLICIT_SLOT
                           ? JobSlot::createImplicit()
                           : JobSlot::createExplicit(static_cast<uint8_t>(token)));
}
#else
// LLVM 19 has no client: a small one. Reads never block, on a description of
// our own (a pipe reopened through /proc), so make's stays as it is.
struct jobserver_client {
  int read_fd = -1, write_fd = -1;
  std::atomic<bool> implicit_free{true};
};

static jobserver_client *connect_jobserver(void) {
  std::optional<jobserver_auth> auth = makeflags_jobserver();
  if (!auth)
    return nullptr;
  auto *client = new jobserver_client;
  if (!auth->fifo.empty()) {
    client->read_fd = client->write_fd = open(auth->fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  } else {
    std::string pipe = "/proc/self/fd/" + std::to_string(auth->read_fd);
    client->read_fd = open(pipe.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    client->write_fd = auth->write_fd;
  }
  if (client->read_fd < 0) {
    delete client;
    return nullptr;
  }
  return client;
}

static jobserver_client *jobserver(void) {
  static jobserver_client *client;
  static std::mutex connecting;
  std::lock_guard<std::mutex> lock(connecting);
  if (!client)
    client = connect_jobserver();
  return client;
}

extern "C" int mtpc_bridge_jobserver_present(void) { return jobserver() != nullptr; }

extern "C" int mtpc_bridge_jobserver_try_acquire(void) {
  jobserver_client *client = jobserver();
  if (client->implicit_free.exchange(false))
    return MTPC_BRIDGE_IMPLICIT_SLOT;
  unsigned char token;
  return read(client->read_fd, &token, 1) == 1 ? token : -1;
}

extern "C" void mtpc_bridge_jobserver_release(int token) {
  jobserver_client *client = jobserver();
  if (token == MTPC_BRIDGE_IMPLICIT_SLOT) {
    client->implicit_free = true;
    return;
  }
  unsigned char byte = static_cast<unsigned char>(token);
  while (write(client->write_fd, &byte, 1) < 0 && errno == EINTR)
    ;
}
#endif

static void (*out_of_memory_handler)(const char *reason);

static void on_bad_alloc(void *, const char *reason, bool) {
  out_of_memory_handler(reason);
  std::abort(); // the handler must not return
}

extern "C" void mtpc_bridge_on_out_of_memory(void (*handler)(const char *reason)) {
  out_of_memory_handler = handler;
  install_bad_alloc_error_handler(on_bad_alloc, nullptr);
}
