#pragma once

#include <boost/describe/detail/pp_for_each.hpp>

// Preprocessor helpers for NETSER_STRUCT. A member argument is either a bare name
// or a parenthesised (name, attributes...).

#define NETSER_PP_CAT(a, b) NETSER_PP_CAT_I(a, b)
#define NETSER_PP_CAT_I(a, b) a##b
#define NETSER_PP_EXPAND(...) __VA_ARGS__
#define NETSER_PP_CALL(m, args) m args

// 1 when x is parenthesised, else 0.
#define NETSER_PP_IS_PAREN(x) NETSER_PP_IS_PAREN_CHECK(NETSER_PP_IS_PAREN_PROBE x)
#define NETSER_PP_IS_PAREN_PROBE(...) ~, 1,
#define NETSER_PP_IS_PAREN_CHECK(...) NETSER_PP_IS_PAREN_CHECK_N(__VA_ARGS__, 0, ~)
#define NETSER_PP_IS_PAREN_CHECK_N(x, n, ...) n

// Every member as a parenthesised list: name -> (name).
#define NETSER_PP_NORMALIZE(x) NETSER_PP_CAT(NETSER_PP_NORMALIZE_, NETSER_PP_IS_PAREN(x))(x)
#define NETSER_PP_NORMALIZE_0(x) (x)
#define NETSER_PP_NORMALIZE_1(x) x

#define NETSER_PP_HEAD(...) NETSER_PP_HEAD_I(__VA_ARGS__, ~)
#define NETSER_PP_HEAD_I(a, ...) a
#define NETSER_PP_TAIL(a, ...) __VA_ARGS__

// The name and the attributes of a member argument.
#define NETSER_PP_MEMBER_NAME(x) NETSER_PP_CALL(NETSER_PP_HEAD, NETSER_PP_NORMALIZE(x))
#define NETSER_PP_MEMBER_ATTRS(x) NETSER_PP_CALL(NETSER_PP_TAIL, NETSER_PP_NORMALIZE(x))

#define NETSER_PP_FOR_EACH(F, a, ...) BOOST_DESCRIBE_PP_FOR_EACH(F, a __VA_OPT__(,) __VA_ARGS__)

// 1 when given more than 52 arguments (Boost.Describe's limit), counted up to 127.
#define NETSER_PP_OVER_LIMIT(...) NETSER_PP_OVER_LIMIT_I(__VA_ARGS__ __VA_OPT__(,) 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ~)
#define NETSER_PP_OVER_LIMIT_I(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, _65, _66, _67, _68, _69, _70, _71, _72, _73, _74, _75, _76, _77, _78, _79, _80, _81, _82, _83, _84, _85, _86, _87, _88, _89, _90, _91, _92, _93, _94, _95, _96, _97, _98, _99, _100, _101, _102, _103, _104, _105, _106, _107, _108, _109, _110, _111, _112, _113, _114, _115, _116, _117, _118, _119, _120, _121, _122, _123, _124, _125, _126, _127, n, ...) n
