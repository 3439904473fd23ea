// Marks for the members of the model's input structs, declared beside the members themselves:
// each struct lists every member it has in a static `members()`, a number with how it acts on the
// model's outputs, a struct (or a list of them) that marks its own, or a piece of the structure
// that samples share. The batch reads the marks (model/input_fields.hpp); every_member_listed
// lets a static_assert next to the struct refuse a member added without a mark.
#pragma once

#include <cstddef>
#include <tuple>

namespace payback {

/// How a number of the inputs acts on the model's outputs. The batch's superposed evaluator
/// holds only where every key moves numbers that are linear or that feed a part's sale alone.
enum class Response {
    linear,       ///< flows in proportion: every total and gap is linear in it
    compounding,  ///< powers, kinks or products of flows: a rate, an escalation, the loan, taxes
    sale,         ///< a part's resale curve: a power, but of the part's sale value alone
};

/// A number (or a list of numbers) of struct S: how it acts, and what it is in the words of the
/// batch's "a key moves ...".
template <class S, class M>
struct Marked {
    M S::*member;
    Response response;
    const char* what;
};

/// A struct member (or a list of them) whose numbers are marked in its own members().
template <class S, class M>
struct Nested {
    M S::*member;
};

/// A member that is not a number a sample may move: months, methods, schedules.
template <class S, class M>
struct Fixed {
    M S::*member;
};

/// The three, with S and M deduced: `mark(&Inputs::inflation, Response::compounding, "inflation")`.
template <class S, class M>
constexpr Marked<S, M> mark(M S::*member, Response response, const char* what) {
    return {member, response, what};
}
template <class S, class M>
constexpr Nested<S, M> nested(M S::*member) {
    return {member};
}
template <class S, class M>
constexpr Fixed<S, M> fixed(M S::*member) {
    return {member};
}

namespace detail {

/// Converts to any member's type, so that S{AnyMember{}, ...} tells how many members S has.
struct AnyMember {
    template <class U>
    constexpr operator U() const noexcept;  // NOLINT(google-explicit-constructor): only ever unevaluated
};

template <class S, class... Members>
constexpr std::size_t member_count() {
    if constexpr (requires { S{Members{}..., AnyMember{}}; })
        return member_count<S, Members..., AnyMember>();
    else
        return sizeof...(Members);
}

}  // namespace detail

/// Whether the aggregate S lists as many members in members() as it declares: a member added
/// without a mark fails the static_assert that asks.
template <class S>
constexpr bool every_member_listed() {
    return detail::member_count<S>() == std::tuple_size_v<decltype(S::members())>;
}

}  // namespace payback
