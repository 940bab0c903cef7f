// Promoted locals under their own names while profiles name them (pgo_names.h).
#include "pgo_names.h"

#include <memory>

#include "llvm/ADT/Any.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mtpc_pgo_names {

namespace {

struct renamed {
  Function *function;
  GlobalValue::VisibilityTypes visibility;
  const std::string *promoted;
};

struct state {
  rename_list promoted;
  std::vector<renamed> done; // while a profile pass runs
};

bool names_profiles(StringRef pass) {
  return pass == "PGOInstrumentationGen" || pass == "PGOInstrumentationUse";
}

void as_locals(Module &m, state &s) {
  for (const auto &[promoted, original] : s.promoted) {
    Function *f = m.getFunction(promoted);
    if (!f || f->isDeclaration())
      continue;
    s.done.push_back({f, f->getVisibility(), &promoted});
    f->setLinkage(GlobalValue::InternalLinkage); // default visibility with it
    f->setName(original);
  }
}

void promote_again(state &s) {
  for (renamed &r : s.done) {
    r.function->setName(*r.promoted);
    r.function->setLinkage(GlobalValue::ExternalLinkage);
    r.function->setVisibility(r.visibility);
  }
  s.done.clear();
}

} // namespace

rename_list renames(const char *const *names, const char *const *originals, size_t count) {
  rename_list list;
  for (size_t i = 0; i < count; i++)
    list.emplace_back(names[i], originals[i]);
  return list;
}

void name_promoted_as_locals(PassInstrumentationCallbacks &pic, rename_list promoted) {
  auto s = std::make_shared<state>();
  s->promoted = std::move(promoted);
  pic.registerBeforeNonSkippedPassCallback([s](StringRef pass, Any ir) {
    const auto *m = any_cast<const Module *>(&ir);
    if (m && names_profiles(pass))
      as_locals(const_cast<Module &>(**m), *s);
  });
  pic.registerAfterPassCallback([s](StringRef, Any, const PreservedAnalyses &) {
    if (!s->done.empty())
      promote_again(*s);
  });
}

} // namespace mtpc_pgo_names
