/*
 * loadgen — sends prepared HTTP/1.1 requests over keep-alive connections and
 * records each response and its latency. Written in C (like wrk) so that the
 * load generator takes as little as possible of the CPU the server under test
 * shares with it on a small machine; a Deno client costs ~35 µs per request.
 *
 *   loadgen HOST PORT CONNECTIONS REQUESTS_FILE RESPONSES_FILE
 *
 * REQUESTS_FILE: requests back to back, each preceded by its length
 * (uint32, little endian). Each connection has one request in flight and takes
 * the next unsent one when its response is complete.
 *
 * RESPONSES_FILE, in request order: uint32 status, uint32 latency in µs,
 * uint32 body length, body. stdout: one line of JSON with the elapsed time of
 * the whole run and this process's CPU time.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  uint32_t status, latency_us, body_len;
  char *body;
} result_t;

typedef struct {
  int fd;
  long req;         /* index of the request in flight, -1 when idle */
  size_t written;   /* bytes of it written */
  char *buf;        /* response bytes read so far */
  size_t len, cap;
  uint64_t started; /* ns */
} conn_t;

static char *data;
static uint32_t *req_len;
static size_t *req_off;
static long n_req, next_req, done_req;
static result_t *results;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void die(const char *what) {
  perror(what);
  exit(1);
}

static void load_requests(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) die(path);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc(size > 0 ? size : 1);
  if (fread(data, 1, size, f) != (size_t)size) die("read requests");
  fclose(f);
  long cap = 1024;
  req_len = malloc(cap * sizeof *req_len);
  req_off = malloc(cap * sizeof *req_off);
  for (long at = 0; at + 4 <= size;) {
    if (n_req == cap) {
      cap *= 2;
      req_len = realloc(req_len, cap * sizeof *req_len);
      req_off = realloc(req_off, cap * sizeof *req_off);
    }
    memcpy(&req_len[n_req], data + at, 4);
    req_off[n_req] = at + 4;
    at += 4 + req_len[n_req];
    n_req++;
  }
  results = calloc(n_req ? n_req : 1, sizeof *results);
}

/* Starts the next request on c, if any remain. */
static void start_next(conn_t *c) {
  c->req = next_req < n_req ? next_req++ : -1;
  c->written = 0;
  c->len = 0;
  if (c->req >= 0) c->started = now_ns();
}

/* Writes as much of the request in flight as the socket takes. */
static void pump_write(conn_t *c) {
  while (c->req >= 0 && c->written < req_len[c->req]) {
    ssize_t n = write(c->fd, data + req_off[c->req] + c->written, req_len[c->req] - c->written);
    if (n < 0) {
      if (errno == EAGAIN) return;
      die("write");
    }
    c->written += n;
  }
}

/* Length of a complete response at the start of c->buf, or 0 when more bytes are needed. */
static size_t complete_response(conn_t *c, uint32_t *status, size_t *body_at) {
  char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
  if (!end) return 0;
  size_t head = end - c->buf + 4;
  long body = -1;
  for (char *p = c->buf; p < end; p++) {
    if (p[0] == '\n' && strncasecmp(p + 1, "content-length:", 15) == 0) {
      body = strtol(p + 16, NULL, 10);
      break;
    }
  }
  if (body < 0) {
    fprintf(stderr, "response without Content-Length\n");
    exit(1);
  }
  if (c->len < head + (size_t)body) return 0;
  *status = (uint32_t)strtol(c->buf + 9, NULL, 10);
  *body_at = head;
  return head + body;
}

static void pump_read(conn_t *c) {
  for (;;) {
    if (c->cap - c->len < 4096) {
      c->cap = c->cap ? c->cap * 2 : 16384;
      c->buf = realloc(c->buf, c->cap);
    }
    size_t space = c->cap - c->len;
    ssize_t n = read(c->fd, c->buf + c->len, space);
    if (n < 0) {
      if (errno == EAGAIN) return;
      die("read");
    }
    if (n == 0) {
      fprintf(stderr, "connection closed by server\n");
      exit(1);
    }
    c->len += n;
    uint32_t status;
    size_t body_at, total = complete_response(c, &status, &body_at);
    /* A short read drained the socket: bytes that arrive later raise a new
       edge, so reading on until EAGAIN would only cost a syscall. */
    if (!total || c->req < 0) {
      if ((size_t)n < space) return;
      continue;
    }
    result_t *r = &results[c->req];
    r->status = status;
    r->latency_us = (uint32_t)((now_ns() - c->started) / 1000);
    r->body_len = total - body_at;
    r->body = malloc(r->body_len + 1);
    memcpy(r->body, c->buf + body_at, r->body_len);
    done_req++;
    start_next(c);
    pump_write(c);
    /* One request in flight per connection: nothing more comes until the server
       answers the one just sent, and its bytes will raise a new edge. */
    return;
  }
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: loadgen HOST PORT CONNECTIONS REQUESTS_FILE RESPONSES_FILE\n");
    return 2;
  }
  int n_conn = atoi(argv[3]);
  load_requests(argv[4]);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[2]))};
  if (inet_pton(AF_INET, argv[1], &addr.sin_addr) != 1) die("address");
  int ep = epoll_create1(0);
  conn_t *conns = calloc(n_conn, sizeof *conns);
  for (int i = 0; i < n_conn; i++) {
    conn_t *c = &conns[i];
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&addr, sizeof addr) < 0) die("connect");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (fcntl(c->fd, F_SETFL, O_NONBLOCK) < 0) die("fcntl");
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl");
  }
  struct rusage ru0, ru1;
  getrusage(RUSAGE_SELF, &ru0);
  uint64_t t0 = now_ns();
  for (int i = 0; i < n_conn; i++) {
    start_next(&conns[i]);
    pump_write(&conns[i]);
  }
  struct epoll_event events[256];
  while (done_req < n_req) {
    int n = epoll_wait(ep, events, 256, 30000);
    if (n < 0 && errno != EINTR) die("epoll_wait");
    if (n == 0) {
      fprintf(stderr, "no response for 30 s\n");
      return 1;
    }
    for (int i = 0; i < n; i++) {
      conn_t *c = events[i].data.ptr;
      if (events[i].events & EPOLLOUT) pump_write(c);
      if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) pump_read(c);
    }
  }
  uint64_t elapsed = now_ns() - t0;
  getrusage(RUSAGE_SELF, &ru1);
  double cpu = (ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) + (ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
               ((ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) + (ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec)) / 1e6;
  FILE *out = fopen(argv[5], "wb");
  if (!out) die(argv[5]);
  for (long i = 0; i < n_req; i++) {
    fwrite(&results[i].status, 4, 1, out);
    fwrite(&results[i].latency_us, 4, 1, out);
    fwrite(&results[i].body_len, 4, 1, out);
    fwrite(results[i].body, 1, results[i].body_len, out);
  }
  fclose(out);
  printf("{\"requests\":%ld,\"elapsed_ms\":%.3f,\"cpu_ms\":%.3f}\n", n_req, elapsed / 1e6, cpu * 1e3);
  return 0;
}
