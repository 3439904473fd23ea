// Every number of ModelInputs that may differ between samples, visited in one fixed order: the batch
// paths read and write the inputs as a flat list (sample_model.hpp) and check samples share the rest.
// The order and the marks are the input structs' own members() (engine.hpp), read here.
#pragma once

#include <cstddef>
#include <tuple>
#include <vector>

#include "payback/model/engine.hpp"

namespace payback {

namespace detail {

// A list of numbers or of structs (a number may be an Eigen array, which has begin() too).
template <class M>
constexpr bool is_list = false;
template <class E>
constexpr bool is_list<std::vector<E>> = true;

template <class T, class S, class Visit>
void visit_marked(S& s, Visit& visit);

template <class T, class S, class M, class Visit>
void visit_member(S& s, const Marked<S, M>& m, Visit& visit) {
    if constexpr (is_list<M>)
        for (T& x : s.*m.member) visit(x, m.response, m.what);
    else
        visit(s.*m.member, m.response, m.what);
}

template <class T, class S, class M, class Visit>
void visit_member(S& s, const Nested<S, M>& n, Visit& visit) {
    if constexpr (is_list<M>)
        for (auto& inner : s.*n.member) visit_marked<T>(inner, visit);
    else
        visit_marked<T>(s.*n.member, visit);
}

template <class T, class S, class M, class Visit>
void visit_member(S& /*s*/, const Fixed<S, M>& /*f*/, Visit& /*visit*/) {}

template <class T, class S, class Visit>
void visit_marked(S& s, Visit& visit) {
    std::apply([&](const auto&... member) { (visit_member<T>(s, member, visit), ...); }, S::members());
}

// Whether a and b agree on every Fixed member and on the length of every list, all the way down.
template <class S>
bool same_structure(const S& a, const S& b);

template <class S, class M>
bool same_member(const S& a, const S& b, const Marked<S, M>& m) {
    if constexpr (is_list<M>)
        return (a.*m.member).size() == (b.*m.member).size();
    else
        return true;
}

template <class S, class M>
bool same_member(const S& a, const S& b, const Nested<S, M>& n) {
    if constexpr (is_list<M>) {
        const M &x = a.*n.member, &y = b.*n.member;
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!same_structure(x[i], y[i])) return false;
        return true;
    } else {
        return same_structure(a.*n.member, b.*n.member);
    }
}

template <class S, class M>
bool same_member(const S& a, const S& b, const Fixed<S, M>& f) {
    return a.*f.member == b.*f.member;
}

template <class S>
bool same_structure(const S& a, const S& b) {
    return std::apply([&](const auto&... member) { return (same_member(a, b, member) && ...); }, S::members());
}

}  // namespace detail

/// Calls `visit(T&, Response, const char* what)` for each number of `in`, always in the same order
/// for the same structure: the members' order in each struct's members(), with their marks.
template <class T, class Visit>
void for_each_marked_field(ModelInputs<T>& in, Visit&& visit) {
    detail::visit_marked<T>(in, visit);
}

/// Calls `visit(T&)` for each numeric field of `in`, in for_each_marked_field's order.
template <class T, class Visit>
void for_each_field(ModelInputs<T>& in, Visit&& visit) {
    for_each_marked_field(in, [&](T& x, Response /*response*/, const char* /*what*/) { visit(x); });
}

/// Whether two inputs share everything but their numbers (months, parts' timing and methods,
/// schedules: every member marked fixed, and the length of every list): only then can they be
/// lanes of one batch.
inline bool same_structure(const ModelInputs<double>& a, const ModelInputs<double>& b) {
    return detail::same_structure(a, b);
}

}  // namespace payback
