#include "util/fileio.h"

#include "util/inputerror.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace clab {

namespace {

std::string tooLarge(std::uint64_t size, std::uint64_t maxBytes, const char *kind, bool atLeast)
{
    return std::string("is ") + (atLeast ? "more than " : "") + limits::byteSize(size) + "; " + kind
           + " may be at most " + limits::byteSize(maxBytes);
}

// Closes the descriptor on every way out.
class Descriptor
{
public:
    explicit Descriptor(int fd)
        : m_fd(fd)
    {
    }
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

[[noreturn]] void failWith(const std::string &what, const std::string &file)
{
    throw std::runtime_error(what + " " + file + ": " + std::strerror(errno));
}

// Opens "<path>.saving" and holds an exclusive lock on it. Another save of the same file that got
// there first is waited for; when it is done it has renamed that inode over the target, so the
// lock is taken again on whatever the temporary name now holds.
int lockedTemporary(const std::string &temp)
{
    for (;;) {
        Descriptor fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
        if (fd.get() < 0)
            failWith("cannot write", temp);
        while (::flock(fd.get(), LOCK_EX) != 0) {
            if (errno != EINTR)
                failWith("cannot lock", temp);
        }
        struct stat opened = {};
        struct stat named = {};
        if (::fstat(fd.get(), &opened) != 0)
            failWith("cannot read", temp);
        if (::stat(temp.c_str(), &named) == 0 && named.st_dev == opened.st_dev
            && named.st_ino == opened.st_ino)
            return fd.release();
    }
}

} // namespace

std::string readTextFile(const std::string &path, std::uint64_t maxBytes, const char *kind)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(path, "", "is a folder, expected a file");
    Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0)
        throw InputError(path, "", std::string("cannot be opened: ") + std::strerror(errno));
    struct stat st = {};
    if (::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && std::uint64_t(st.st_size) > maxBytes)
        throw InputError(path, "", tooLarge(std::uint64_t(st.st_size), maxBytes, kind, false));
    // Pipes and devices have no size: read up to the limit and one byte more to know.
    std::string text;
    if (S_ISREG(st.st_mode))
        text.reserve(std::size_t(st.st_size));
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            throw InputError(path, "",
                             std::string("could not be read to the end: ") + std::strerror(errno));
        }
        text.append(buffer, std::size_t(n));
        if (text.size() > maxBytes)
            throw InputError(path, "", tooLarge(maxBytes, maxBytes, kind, true));
    }
    return text;
}

void writeFileAtomically(const std::string &path, const std::string &contents)
{
    const std::string temp = path + ".saving";
    Descriptor fd(lockedTemporary(temp));
    // Whatever a killed save left in the temporary file goes; the old file is not touched yet.
    if (::ftruncate(fd.get(), 0) != 0)
        failWith("cannot write", temp);
    struct stat old = {};
    if (::stat(path.c_str(), &old) == 0)
        ::fchmod(fd.get(), old.st_mode & 07777);
    std::size_t written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(fd.get(), contents.data() + written, contents.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            ::unlink(temp.c_str());
            errno = error;
            failWith("cannot write", temp);
        }
        written += std::size_t(n);
    }
    if (::fsync(fd.get()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        errno = error;
        failWith("cannot flush", temp);
    }
    // Renamed while still locked, so that a waiting save finds the name free or new.
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        errno = error;
        failWith("cannot replace", path);
    }
    // The rename itself must reach the disk for the new file to survive a power cut.
    const std::string folder = std::filesystem::path(path).parent_path().string();
    Descriptor dir(
        ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0)
        ::fsync(dir.get());
}

} // namespace clab
