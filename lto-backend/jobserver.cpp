#include "jobserver.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <string>
#include <unistd.h>

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Support/Jobserver.h"
#endif

using namespace llvm;

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
