// Asynchronous I/O writes its buffer after `aio_read` returned, concurrently with the program.
// gcc -O0 -pthread (-lrt): the assertion fails on most runs (the file starts with "\177ELF"; the
// read may land before or after the store).
#include <aio.h>
#include <assert.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static struct { int first; char rest[60]; } buf;
static int other;

int main(void) {
    int fd = open("/proc/self/exe", O_RDONLY);
    static struct aiocb cb;
    memset(&cb, 0, sizeof cb);
    cb.aio_fildes = fd;
    cb.aio_buf = &buf;
    cb.aio_nbytes = sizeof buf;
    other = 2;
    aio_read(&cb);
    buf.first = 0;
    usleep(300000);
    assert(buf.first == 0); // FAILS! the read lands after the store
    assert(other == 2); // PROVED: its address never escaped
    return 0;
}
