// LLVM's option registry, for option_sets.c: apply a compile's options and
// undo them, and hide the given options from a reset of all of them.
#include "llvm_options.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cxx_util.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

struct mtpc_bridge_option_list {
  std::vector<cl::Option *> options;
};

// What stops a set from applying: a positional, an unknown name, an option
// that ends the process (help, version) or one the process has set itself.
static std::string refuse(const char *const *args, unsigned count) {
  auto &registered = cl::getRegisteredOptions(); // a StringMap in 19, a DenseMap in 22
  for (unsigned i = 0; i < count; i++) {
    StringRef arg(args[i]);
    StringRef name = arg.ltrim('-').split('=').first;
    auto found = registered.find(name);
    if (!arg.starts_with("-") || name.empty())
      return "LLVM option '" + arg.str() + "' does not start with '-'";
    if (found == registered.end())
      return "unknown LLVM option '" + arg.str() + "'";
    if (name.starts_with("help") || name == "version" || name.starts_with("print-"))
      return "LLVM option '" + arg.str() + "' cannot be given to a compile";
    if (found->second->getNumOccurrences() > 0)
      return "LLVM option '-" + name.str() + "' is set for the whole process; a compile cannot change it";
  }
  return "";
}

static mtpc_bridge_option_list *given_options() {
  auto *list = new mtpc_bridge_option_list;
  for (auto &entry : cl::getRegisteredOptions())
    if (entry.second->getNumOccurrences() > 0)
      list->options.push_back(entry.second);
  return list;
}

extern "C" mtpc_bridge_option_list *mtpc_bridge_llvm_options_apply(const char *const *args,
                                                                   unsigned count, char **message) {
  std::string problem = refuse(args, count);
  if (!problem.empty()) {
    mtpc_util::fail(problem, message);
    return nullptr;
  }
  std::unique_ptr<mtpc_bridge_option_list> before(given_options());
  std::vector<const char *> argv{"mtpc"};
  argv.insert(argv.end(), args, args + count);
  std::string errors;
  raw_string_ostream error_stream(errors);
  bool parsed = cl::ParseCommandLineOptions(static_cast<int>(argv.size()), argv.data(), "",
                                            &error_stream);
  auto *changed = given_options();
  std::vector<cl::Option *> &now = changed->options;
  now.erase(std::remove_if(now.begin(), now.end(), [&](cl::Option *o) {
              return std::count(before->options.begin(), before->options.end(), o) > 0;
            }), now.end());
  if (parsed)
    return changed;
  mtpc_bridge_llvm_options_restore(changed);
  StringRef first = StringRef(error_stream.str()).split('\n').first.trim();
  mtpc_util::fail(first.empty() ? "cannot parse the LLVM options" : first.str(), message);
  return nullptr;
}

extern "C" void mtpc_bridge_llvm_options_restore(mtpc_bridge_option_list *changed) {
  if (!changed)
    return;
  for (cl::Option *option : changed->options)
    option->reset();
  delete changed;
}

extern "C" mtpc_bridge_option_list *mtpc_bridge_llvm_options_hide_given(void) {
  mtpc_bridge_option_list *given = given_options();
  for (cl::Option *option : given->options)
    option->removeArgument();
  return given;
}

extern "C" void mtpc_bridge_llvm_options_unhide(mtpc_bridge_option_list *hidden) {
  for (cl::Option *option : hidden->options)
    option->addArgument();
  delete hidden;
}
