/*
 * A mupen64plus input plugin that plays a script instead of reading a
 * keyboard or a gamepad, so that tests can press buttons deterministically.
 *
 * Build (headers from Debian's libmupen64plus-dev):
 *   gcc -O2 -shared -fPIC -I/usr/include/mupen64plus \
 *       -o mupen64plus-input-scripted.so scripted_input.c
 * Use:
 *   N64_INPUT_SCRIPT=script.txt mupen64plus --input ./mupen64plus-input-scripted.so ...
 *
 * Controller 1 is plugged in; the others are not. The script is read at
 * start-up. Each line is
 *
 *   POLL BUTTONS [X [Y]]      # comment
 *
 * meaning: from the POLL-th read of controller 1 on (counting from 0),
 * hold BUTTONS (hex, in the controller's wire order: A 8000, B 4000,
 * Z 2000, Start 1000, D-pad U/D/L/R 0800/0400/0200/0100, L 0020, R 0010,
 * C U/D/L/R 0008/0004/0002/0001) with the stick at X, Y (-128..127, right
 * and up positive; default 0). Lines must come in increasing POLL order.
 * Steps count controller reads, not wall-clock time, so a run is the same
 * however fast the emulator goes. Each step is logged on stderr when it
 * starts.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M64P_PLUGIN_PROTOTYPES 1
#include "m64p_common.h"
#include "m64p_plugin.h"
#include "m64p_types.h"

#define MAX_STEPS 1024

struct step {
    unsigned long poll;
    unsigned int buttons; /* wire order */
    int x, y;
};

static struct step steps[MAX_STEPS];
static int step_count;
static int current_step = -1;
static unsigned long polls;

/* The core's BUTTONS layout: the wire's high byte in bits 0-7, its low
 * byte in bits 8-15, then X and Y. */
static unsigned int to_core_layout(const struct step *s)
{
    return ((s->buttons >> 8) & 0xFF) | ((s->buttons & 0xFF) << 8) |
           ((unsigned int)(s->x & 0xFF) << 16) | ((unsigned int)(s->y & 0xFF) << 24);
}

static int load_script(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int number = 0;
    if (!f) {
        fprintf(stderr, "scripted input: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        struct step s = {0, 0, 0, 0};
        char *hash = strchr(line, '#');
        int fields;
        number++;
        if (hash)
            *hash = '\0';
        fields = sscanf(line, "%lu %x %d %d", &s.poll, &s.buttons, &s.x, &s.y);
        if (fields <= 0)
            continue; /* blank or comment */
        if (fields < 2 || s.x < -128 || s.x > 127 || s.y < -128 || s.y > 127 ||
            (step_count > 0 && s.poll < steps[step_count - 1].poll) || step_count == MAX_STEPS) {
            fprintf(stderr, "scripted input: %s:%d: bad line (POLL BUTTONS [X [Y]], polls increasing)\n",
                    path, number);
            fclose(f);
            return -1;
        }
        steps[step_count++] = s;
    }
    fclose(f);
    return 0;
}

EXPORT m64p_error CALL PluginStartup(m64p_dynlib_handle core, void *context,
                                     void (*debug)(void *, int, const char *))
{
    const char *path = getenv("N64_INPUT_SCRIPT");
    (void)core;
    (void)context;
    (void)debug;
    step_count = 0;
    current_step = -1;
    polls = 0;
    if (path && *path && load_script(path) != 0)
        return M64ERR_INPUT_INVALID;
    return M64ERR_SUCCESS;
}

EXPORT m64p_error CALL PluginShutdown(void)
{
    return M64ERR_SUCCESS;
}

EXPORT m64p_error CALL PluginGetVersion(m64p_plugin_type *type, int *version, int *api_version,
                                        const char **name, int *capabilities)
{
    if (type)
        *type = M64PLUGIN_INPUT;
    if (version)
        *version = 0x010000;
    if (api_version)
        *api_version = 0x020100;
    if (name)
        *name = "Scripted input (tests)";
    if (capabilities)
        *capabilities = 0;
    return M64ERR_SUCCESS;
}

EXPORT void CALL InitiateControllers(CONTROL_INFO info)
{
    int i;
    for (i = 0; i < 4; i++) {
        info.Controls[i].Present = i == 0;
        info.Controls[i].RawData = 0;
        info.Controls[i].Plugin = PLUGIN_NONE;
    }
}

EXPORT void CALL GetKeys(int control, BUTTONS *keys)
{
    keys->Value = 0;
    if (control != 0)
        return;
    while (current_step + 1 < step_count && steps[current_step + 1].poll <= polls) {
        const struct step *s = &steps[++current_step];
        fprintf(stderr, "scripted input: poll %lu: buttons %04x stick %d %d\n", polls, s->buttons,
                s->x, s->y);
    }
    if (current_step >= 0)
        keys->Value = to_core_layout(&steps[current_step]);
    polls++;
}

EXPORT void CALL ControllerCommand(int control, unsigned char *command)
{
    (void)control;
    (void)command;
}

EXPORT void CALL ReadController(int control, unsigned char *command)
{
    (void)control;
    (void)command;
}

EXPORT int CALL RomOpen(void)
{
    return 1;
}

EXPORT void CALL RomClosed(void)
{
}

EXPORT void CALL SDL_KeyDown(int keymod, int keysym)
{
    (void)keymod;
    (void)keysym;
}

EXPORT void CALL SDL_KeyUp(int keymod, int keysym)
{
    (void)keymod;
    (void)keysym;
}
