#pragma once

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

// The number of arguments, 0 to 52.
#define NETSER_PP_COUNT(...) NETSER_PP_COUNT_I(__VA_ARGS__ __VA_OPT__(,) 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, ~)
#define NETSER_PP_COUNT_I(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, n, ...) n

// F(a, i, x) for each argument x, i its index (an integer expression). Each level
// expands one call and hands the rest on, so that every token is scanned once (Boost's
// BOOST_DESCRIBE_PP_FOR_EACH rescans what F produced once per argument that follows).
#define NETSER_PP_FOR_EACH_I(F, a, ...)                                                                  \
    NETSER_PP_CAT(NETSER_PP_FOR_EACH_I_, NETSER_PP_COUNT(__VA_ARGS__))                                   \
    (F, a, NETSER_PP_COUNT(__VA_ARGS__) __VA_OPT__(, ) __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_0(F, a, n)
#define NETSER_PP_FOR_EACH_I_1(F, a, n, x) F(a, n - 1, x)
#define NETSER_PP_FOR_EACH_I_2(F, a, n, x, ...) F(a, n - 2, x) NETSER_PP_FOR_EACH_I_1(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_3(F, a, n, x, ...) F(a, n - 3, x) NETSER_PP_FOR_EACH_I_2(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_4(F, a, n, x, ...) F(a, n - 4, x) NETSER_PP_FOR_EACH_I_3(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_5(F, a, n, x, ...) F(a, n - 5, x) NETSER_PP_FOR_EACH_I_4(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_6(F, a, n, x, ...) F(a, n - 6, x) NETSER_PP_FOR_EACH_I_5(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_7(F, a, n, x, ...) F(a, n - 7, x) NETSER_PP_FOR_EACH_I_6(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_8(F, a, n, x, ...) F(a, n - 8, x) NETSER_PP_FOR_EACH_I_7(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_9(F, a, n, x, ...) F(a, n - 9, x) NETSER_PP_FOR_EACH_I_8(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_10(F, a, n, x, ...) F(a, n - 10, x) NETSER_PP_FOR_EACH_I_9(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_11(F, a, n, x, ...) F(a, n - 11, x) NETSER_PP_FOR_EACH_I_10(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_12(F, a, n, x, ...) F(a, n - 12, x) NETSER_PP_FOR_EACH_I_11(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_13(F, a, n, x, ...) F(a, n - 13, x) NETSER_PP_FOR_EACH_I_12(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_14(F, a, n, x, ...) F(a, n - 14, x) NETSER_PP_FOR_EACH_I_13(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_15(F, a, n, x, ...) F(a, n - 15, x) NETSER_PP_FOR_EACH_I_14(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_16(F, a, n, x, ...) F(a, n - 16, x) NETSER_PP_FOR_EACH_I_15(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_17(F, a, n, x, ...) F(a, n - 17, x) NETSER_PP_FOR_EACH_I_16(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_18(F, a, n, x, ...) F(a, n - 18, x) NETSER_PP_FOR_EACH_I_17(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_19(F, a, n, x, ...) F(a, n - 19, x) NETSER_PP_FOR_EACH_I_18(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_20(F, a, n, x, ...) F(a, n - 20, x) NETSER_PP_FOR_EACH_I_19(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_21(F, a, n, x, ...) F(a, n - 21, x) NETSER_PP_FOR_EACH_I_20(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_22(F, a, n, x, ...) F(a, n - 22, x) NETSER_PP_FOR_EACH_I_21(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_23(F, a, n, x, ...) F(a, n - 23, x) NETSER_PP_FOR_EACH_I_22(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_24(F, a, n, x, ...) F(a, n - 24, x) NETSER_PP_FOR_EACH_I_23(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_25(F, a, n, x, ...) F(a, n - 25, x) NETSER_PP_FOR_EACH_I_24(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_26(F, a, n, x, ...) F(a, n - 26, x) NETSER_PP_FOR_EACH_I_25(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_27(F, a, n, x, ...) F(a, n - 27, x) NETSER_PP_FOR_EACH_I_26(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_28(F, a, n, x, ...) F(a, n - 28, x) NETSER_PP_FOR_EACH_I_27(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_29(F, a, n, x, ...) F(a, n - 29, x) NETSER_PP_FOR_EACH_I_28(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_30(F, a, n, x, ...) F(a, n - 30, x) NETSER_PP_FOR_EACH_I_29(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_31(F, a, n, x, ...) F(a, n - 31, x) NETSER_PP_FOR_EACH_I_30(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_32(F, a, n, x, ...) F(a, n - 32, x) NETSER_PP_FOR_EACH_I_31(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_33(F, a, n, x, ...) F(a, n - 33, x) NETSER_PP_FOR_EACH_I_32(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_34(F, a, n, x, ...) F(a, n - 34, x) NETSER_PP_FOR_EACH_I_33(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_35(F, a, n, x, ...) F(a, n - 35, x) NETSER_PP_FOR_EACH_I_34(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_36(F, a, n, x, ...) F(a, n - 36, x) NETSER_PP_FOR_EACH_I_35(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_37(F, a, n, x, ...) F(a, n - 37, x) NETSER_PP_FOR_EACH_I_36(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_38(F, a, n, x, ...) F(a, n - 38, x) NETSER_PP_FOR_EACH_I_37(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_39(F, a, n, x, ...) F(a, n - 39, x) NETSER_PP_FOR_EACH_I_38(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_40(F, a, n, x, ...) F(a, n - 40, x) NETSER_PP_FOR_EACH_I_39(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_41(F, a, n, x, ...) F(a, n - 41, x) NETSER_PP_FOR_EACH_I_40(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_42(F, a, n, x, ...) F(a, n - 42, x) NETSER_PP_FOR_EACH_I_41(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_43(F, a, n, x, ...) F(a, n - 43, x) NETSER_PP_FOR_EACH_I_42(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_44(F, a, n, x, ...) F(a, n - 44, x) NETSER_PP_FOR_EACH_I_43(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_45(F, a, n, x, ...) F(a, n - 45, x) NETSER_PP_FOR_EACH_I_44(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_46(F, a, n, x, ...) F(a, n - 46, x) NETSER_PP_FOR_EACH_I_45(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_47(F, a, n, x, ...) F(a, n - 47, x) NETSER_PP_FOR_EACH_I_46(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_48(F, a, n, x, ...) F(a, n - 48, x) NETSER_PP_FOR_EACH_I_47(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_49(F, a, n, x, ...) F(a, n - 49, x) NETSER_PP_FOR_EACH_I_48(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_50(F, a, n, x, ...) F(a, n - 50, x) NETSER_PP_FOR_EACH_I_49(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_51(F, a, n, x, ...) F(a, n - 51, x) NETSER_PP_FOR_EACH_I_50(F, a, n, __VA_ARGS__)
#define NETSER_PP_FOR_EACH_I_52(F, a, n, x, ...) F(a, n - 52, x) NETSER_PP_FOR_EACH_I_51(F, a, n, __VA_ARGS__)

// 1 when given more than 52 arguments (Boost.Describe's limit), counted up to 127.
#define NETSER_PP_OVER_LIMIT(...) NETSER_PP_OVER_LIMIT_I(__VA_ARGS__ __VA_OPT__(,) 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ~)
#define NETSER_PP_OVER_LIMIT_I(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, _65, _66, _67, _68, _69, _70, _71, _72, _73, _74, _75, _76, _77, _78, _79, _80, _81, _82, _83, _84, _85, _86, _87, _88, _89, _90, _91, _92, _93, _94, _95, _96, _97, _98, _99, _100, _101, _102, _103, _104, _105, _106, _107, _108, _109, _110, _111, _112, _113, _114, _115, _116, _117, _118, _119, _120, _121, _122, _123, _124, _125, _126, _127, n, ...) n
