#include "util/terminal.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

using impact::testing::env_of;
using impact::util::use_colour;

namespace {

// A pseudo-terminal's follower end: a file descriptor that isatty() accepts, closed on destruction.
class Terminal {
public:
  Terminal() {
    m_leader = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (m_leader >= 0 && ::grantpt(m_leader) == 0 && ::unlockpt(m_leader) == 0) {
      m_follower = ::open(::ptsname(m_leader), O_RDWR | O_NOCTTY);
    }
  }
  ~Terminal() {
    if (m_follower >= 0) ::close(m_follower);
    if (m_leader >= 0) ::close(m_leader);
  }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;
  int fd() const { return m_follower; }

private:
  int m_leader = -1;
  int m_follower = -1;
};

} // namespace

TEST_CASE("use_colour follows NO_COLOR, TERM and CLICOLOR_FORCE through the environment seam", "[terminal]") {
  Terminal tty;
  REQUIRE(tty.fd() >= 0);
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  int not_a_tty = pipe_fds[1];

  CHECK(use_colour(tty.fd(), env_of({})));
  CHECK_FALSE(use_colour(not_a_tty, env_of({})));
  // no-color.org: present and not empty turns colour off; an empty NO_COLOR is as if unset.
  CHECK_FALSE(use_colour(tty.fd(), env_of({{"NO_COLOR", "1"}})));
  CHECK(use_colour(tty.fd(), env_of({{"NO_COLOR", ""}})));
  CHECK_FALSE(use_colour(tty.fd(), env_of({{"TERM", "dumb"}})));
  CHECK(use_colour(tty.fd(), env_of({{"TERM", "xterm"}})));
  CHECK(use_colour(not_a_tty, env_of({{"CLICOLOR_FORCE", "1"}, {"NO_COLOR", "1"}})));
  CHECK_FALSE(use_colour(not_a_tty, env_of({{"CLICOLOR_FORCE", "0"}})));
  CHECK_FALSE(use_colour(not_a_tty, env_of({{"CLICOLOR_FORCE", ""}})));

  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}
