#ifndef STASH_CDBUS_SHIM_H
#define STASH_CDBUS_SHIM_H
#include <stdint.h>
#include <systemd/sd-bus.h>

/* sd-bus's object tables (vtables) are built from C macros with designated initialisers, which
   Swift cannot write, and its signal and reply helpers are variadic. So the tables live here, each
   entry pointing at one of three trampolines, and the trampolines hand every call to the Swift
   functions in a `stash_bus_handlers` passed as the object's userdata. No global state: the
   handlers and their context travel with the object. */

/* A method call: read the arguments from `m`, reply (stash_bus_reply_empty) or return
   sd_bus_error_set(error, ...). */
typedef int (*stash_bus_method_fn)(sd_bus_message *m, void *context, sd_bus_error *error);
/* A property read: append the value to `reply`. */
typedef int (*stash_bus_get_fn)(const char *interface, const char *property, sd_bus_message *reply,
                                void *context, sd_bus_error *error);
/* A property write: read the value from `value`. */
typedef int (*stash_bus_set_fn)(const char *interface, const char *property, sd_bus_message *value,
                                void *context, sd_bus_error *error);

typedef struct stash_bus_handlers {
  stash_bus_method_fn method;
  stash_bus_get_fn get;
  stash_bus_set_fn set;
  void *context;
} stash_bus_handlers;

static int stash_bus_method_trampoline(sd_bus_message *m, void *userdata, sd_bus_error *error) {
  stash_bus_handlers *h = (stash_bus_handlers *)userdata;
  return h->method(m, h->context, error);
}

static int stash_bus_get_trampoline(sd_bus *bus, const char *path, const char *interface,
                                    const char *property, sd_bus_message *reply, void *userdata,
                                    sd_bus_error *error) {
  (void)bus; (void)path;
  stash_bus_handlers *h = (stash_bus_handlers *)userdata;
  return h->get(interface, property, reply, h->context, error);
}

static int stash_bus_set_trampoline(sd_bus *bus, const char *path, const char *interface,
                                    const char *property, sd_bus_message *value, void *userdata,
                                    sd_bus_error *error) {
  (void)bus; (void)path;
  stash_bus_handlers *h = (stash_bus_handlers *)userdata;
  return h->set(interface, property, value, h->context, error);
}

#define STASH_METHOD(name, in) \
  SD_BUS_METHOD(name, in, "", stash_bus_method_trampoline, SD_BUS_VTABLE_UNPRIVILEGED)
#define STASH_PROPERTY(name, type, flags) \
  SD_BUS_PROPERTY(name, type, stash_bus_get_trampoline, 0, flags)
#define STASH_WRITABLE(name, type, flags)                                                     \
  SD_BUS_WRITABLE_PROPERTY(name, type, stash_bus_get_trampoline, stash_bus_set_trampoline, 0, \
                           (flags) | SD_BUS_VTABLE_UNPRIVILEGED)
#define STASH_CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
#define STASH_CONST SD_BUS_VTABLE_PROPERTY_CONST

/* org.mpris.MediaPlayer2: the application. A terminal program cannot raise its window, so CanRaise
   is false; there is no track list and no desktop entry. */
static const sd_bus_vtable stash_mpris_root_vtable[] = {
  SD_BUS_VTABLE_START(0),
  STASH_METHOD("Raise", ""),
  STASH_METHOD("Quit", ""),
  STASH_PROPERTY("CanQuit", "b", STASH_CONST),
  STASH_PROPERTY("CanRaise", "b", STASH_CONST),
  STASH_PROPERTY("HasTrackList", "b", STASH_CONST),
  STASH_PROPERTY("Identity", "s", STASH_CONST),
  STASH_PROPERTY("SupportedUriSchemes", "as", STASH_CONST),
  STASH_PROPERTY("SupportedMimeTypes", "as", STASH_CONST),
  SD_BUS_VTABLE_END
};

/* org.mpris.MediaPlayer2.Player. Position changes all the time and, as the specification says,
   is never announced (flags 0: sd-bus marks it EmitsChangedSignal=false); Seeked says when it
   jumps. */
static const sd_bus_vtable stash_mpris_player_vtable[] = {
  SD_BUS_VTABLE_START(0),
  STASH_METHOD("Next", ""),
  STASH_METHOD("Previous", ""),
  STASH_METHOD("Pause", ""),
  STASH_METHOD("PlayPause", ""),
  STASH_METHOD("Stop", ""),
  STASH_METHOD("Play", ""),
  STASH_METHOD("Seek", "x"),
  STASH_METHOD("SetPosition", "ox"),
  STASH_METHOD("OpenUri", "s"),
  SD_BUS_SIGNAL("Seeked", "x", 0),
  STASH_PROPERTY("PlaybackStatus", "s", STASH_CHANGES),
  STASH_WRITABLE("Rate", "d", STASH_CHANGES),
  STASH_PROPERTY("Metadata", "a{sv}", STASH_CHANGES),
  STASH_WRITABLE("Volume", "d", STASH_CHANGES),
  STASH_PROPERTY("Position", "x", 0),
  STASH_PROPERTY("MinimumRate", "d", STASH_CONST),
  STASH_PROPERTY("MaximumRate", "d", STASH_CONST),
  STASH_PROPERTY("CanGoNext", "b", STASH_CHANGES),
  STASH_PROPERTY("CanGoPrevious", "b", STASH_CHANGES),
  STASH_PROPERTY("CanPlay", "b", STASH_CHANGES),
  STASH_PROPERTY("CanPause", "b", STASH_CHANGES),
  STASH_PROPERTY("CanSeek", "b", STASH_CHANGES),
  STASH_PROPERTY("CanControl", "b", STASH_CONST),
  SD_BUS_VTABLE_END
};

static inline const sd_bus_vtable *stash_mpris_root(void) { return stash_mpris_root_vtable; }
static inline const sd_bus_vtable *stash_mpris_player(void) { return stash_mpris_player_vtable; }

/* An empty method reply (sd_bus_reply_method_return is variadic). */
static inline int stash_bus_reply_empty(sd_bus_message *m) { return sd_bus_reply_method_return(m, NULL); }

/* The Player's Seeked signal, with the new position in microseconds. */
static inline int stash_mpris_emit_seeked(sd_bus *bus, const char *path, int64_t position) {
  return sd_bus_emit_signal(bus, path, "org.mpris.MediaPlayer2.Player", "Seeked", "x", position);
}

/* SD_BUS_ERROR_NULL, for Swift. */
static inline sd_bus_error stash_bus_error_null(void) {
  sd_bus_error e = SD_BUS_ERROR_NULL;
  return e;
}
#endif
