/* The PettingZoo environment's and env()'s outer wrapper's hot attributes, kept in C
 * fields of their bases (kartentisch.interop._shortway: EnvBase and WrapperBase) rather
 * than in the instance dict, so that the short way (_aec.h) reads and writes them without
 * a dict lookup. Python sees them as ordinary attributes (member descriptors). */
#ifndef KARTENTISCH_ENVSTATE_H
#define KARTENTISCH_ENVSTATE_H

#include <Python.h>

/* The fields, in the order of ENV_FIELDS (name, C field). */
typedef struct {
    PyObject_HEAD
    PyObject *agent_selection, *rewards, *cumulative, *terminations, *truncations, *infos,
        *agents, *possible, *seat_of, *short_way, *actions, *no_rewards;
} EnvState;

typedef struct {
    PyObject_HEAD
    PyObject *bare, *illegal, *has_reset, *has_updated;
} WrapperState;

#define ENV_FIELDS(X)                             \
    X("agent_selection", agent_selection)         \
    X("rewards", rewards)                         \
    X("_cumulative_rewards", cumulative)          \
    X("terminations", terminations)               \
    X("truncations", truncations)                 \
    X("infos", infos)                             \
    X("agents", agents)                           \
    X("possible_agents", possible)                \
    X("_seat_of", seat_of)                        \
    X("_short", short_way)                        \
    X("_actions", actions)                        \
    X("_no_rewards", no_rewards)

#define WRAPPER_FIELDS(X)         \
    X("_bare", bare)              \
    X("_illegal", illegal)        \
    X("_has_reset", has_reset)    \
    X("_has_updated", has_updated)

#endif
