//===- ManifestTest.cpp - Manifest JSON reader, writer and checks ---------===//

#include "tile/runtime/Manifest.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

using namespace tile::runtime;
using namespace tile::test;

namespace {

/// The ```json blocks of docs/artifact.md, in order.
std::vector<std::string> docExamples() {
  std::string doc =
      readFile(std::string(TILE_RUNTIME_TEST_DIR) + "/../../docs/artifact.md");
  std::vector<std::string> blocks;
  const std::string open = "```json\n", close = "```\n";
  for (size_t at = doc.find(open); at != std::string::npos;
       at = doc.find(open, at)) {
    at += open.size();
    size_t end = doc.find(close, at);
    if (end == std::string::npos)
      break;
    blocks.push_back(doc.substr(at, end - at));
    at = end + close.size();
  }
  return blocks;
}

std::string exampleJson() { return writeManifestJson(makeExampleManifest()); }

/// `text` with the one occurrence of `from` replaced by `to`.
std::string replaced(const std::string &text, const std::string &from,
                     const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "no '" << from << "' in the manifest";
  EXPECT_EQ(text.find(from, at + 1), std::string::npos)
      << "'" << from << "' occurs twice";
  if (at == std::string::npos)
    return text;
  return text.substr(0, at) + to + text.substr(at + from.size());
}

/// The parse error for `text`; fails the test if it parses.
std::string parseError(const std::string &text) {
  KernelManifest manifest;
  std::string error;
  EXPECT_FALSE(parseManifestJson(text, manifest, error)) << text;
  return error;
}

/// The validation error for `manifest`; fails the test if it is valid.
std::string validationError(const KernelManifest &manifest) {
  std::string error;
  EXPECT_FALSE(validateManifest(manifest, error));
  return error;
}

TEST(ManifestTest, RoundTrip) {
  KernelManifest original = makeExampleManifest();
  std::string text = writeManifestJson(original);
  KernelManifest parsed;
  std::string error;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, original);
  // Stable: writing the parsed manifest gives the same bytes.
  EXPECT_EQ(writeManifestJson(parsed), text);
}

TEST(ManifestTest, RoundTripKeepsEveryField) {
  KernelManifest original = makeExampleManifest();
  original.problem.cInit = CInit::Fill;
  original.problem.cFillValue = -0.1;
  original.params[2].access = ParamAccess::Write;
  original.params[1] = {
      "Bt", ParamRole::Rhs,   ElementType::F32, 4096, 4096, 1, 4100,
      8,    ParamAccess::Read};
  original.config.smem = "xor";
  original.config.prefetch = false;
  original.config.text = "quote \" backslash \\ newline \n tab \t ctrl \x01";
  original.resources = {-1, -1, -1, -1};
  original.binaries.pop_back();
  original.binaries[0].fnv1a64 = 0xffffffffffffffffull;
  original.binaries[0].size = 1ull << 40;
  original.launch.dynamicSharedBytes = 232448;
  KernelManifest parsed;
  std::string error;
  ASSERT_TRUE(parseManifestJson(writeManifestJson(original), parsed, error))
      << error;
  EXPECT_EQ(parsed, original);
  EXPECT_EQ(parsed.problem.cFillValue, -0.1);
  EXPECT_EQ(parsed.config.text, original.config.text);
}

TEST(ManifestTest, EqualityLooksAtFields) {
  KernelManifest a = makeExampleManifest(), b = a;
  EXPECT_EQ(a, b);
  b.params[2].colStride = 2;
  EXPECT_NE(a, b);
  b = a;
  b.config.prefetch = false;
  EXPECT_NE(a, b);
  b = a;
  b.config.splitLast = 3;
  EXPECT_NE(a, b);
  b = a;
  b.binaries[1].fnv1a64 ^= 1;
  EXPECT_NE(a, b);
}

TEST(ManifestTest, DocumentationExamplesAreWriterOutput) {
  // docs/artifact.md shows the bytes the writer writes for the two example
  // manifests, and they are valid.
  std::vector<std::string> examples = docExamples();
  ASSERT_EQ(examples.size(), 2u);
  KernelManifest expected[] = {makeExampleManifest(),
                               makeWgmmaExampleManifest()};
  for (size_t i = 0; i < 2; ++i) {
    KernelManifest manifest;
    std::string error;
    ASSERT_TRUE(parseManifestJson(examples[i], manifest, error))
        << i << ": " << error;
    EXPECT_EQ(manifest, expected[i]) << i;
    EXPECT_TRUE(validateManifest(manifest, error)) << i << ": " << error;
    EXPECT_EQ(writeManifestJson(expected[i]), examples[i]) << i;
  }
}

TEST(ManifestTest, RoundTripKeepsVersion2Fields) {
  KernelManifest original = makeWgmmaExampleManifest();
  original.problem.elementType = ElementType::F16;
  for (ParamInfo &param : original.params)
    param.elementType = ElementType::F16;
  original.params[2].elementType = ElementType::F32;
  original.launch.cluster = {1, 2, 1};
  original.tensorMaps[0].swizzle = TensorMapSwizzle::B32;
  original.tensorMaps[0].l2Promotion = TensorMapL2Promotion::None;
  original.tensorMaps[1].swizzle = TensorMapSwizzle::None;
  original.tensorMaps[1].l2Promotion = TensorMapL2Promotion::B64;
  original.tensorMaps.push_back(
      {"B", {256, 8}, TensorMapSwizzle::B64, TensorMapL2Promotion::B128});
  original.config.copy = CopyKind::CpAsync;
  original.config.specialize = false;
  original.config.persistent = true;
  original.config.cluster = {1, 2};
  std::string text = writeManifestJson(original);
  KernelManifest parsed;
  std::string error;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, original);
  EXPECT_EQ(writeManifestJson(parsed), text);
  EXPECT_NE(text.find("\n  \"tensor_maps\": [\n    {\"param\": \"A\", \"box\": "
                      "[128, 64], \"swizzle\": \"32B\", \"l2_promotion\": "
                      "\"none\"},\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("{\"param\": \"B\", \"box\": [256, 8], \"swizzle\": "
                      "\"64B\", \"l2_promotion\": \"128B\"}\n  ],\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"cluster\": [1, 2, 1], \"dynamic_shared_bytes\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"element_type\": \"f16\", \"accumulator_type\": "
                      "\"f32\", \"c_init\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"copy\": \"cp_async\", \"specialize\": false"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"cluster\": [1, 2], \"persistent\": true, \"text\""),
            std::string::npos)
      << text;
  // Without tensor maps the array is empty, on one line.
  EXPECT_NE(exampleJson().find("\n  \"tensor_maps\": [],\n"),
            std::string::npos);
}

TEST(ManifestTest, WriterUsesDocumentKeyOrder) {
  std::string text = exampleJson();
  const char *keys[] = {"\"format\"",  "\"version\"",  "\"kernel\"",
                        "\"target\"",  "\"binaries\"", "\"launch\"",
                        "\"problem\"", "\"params\"",   "\"tensor_maps\"",
                        "\"config\"",  "\"resources\""};
  size_t last = 0;
  for (const char *key : keys) {
    size_t at = text.find(std::string("\n  ") + key);
    ASSERT_NE(at, std::string::npos) << key;
    EXPECT_GT(at, last) << key;
    last = at;
  }
  // One line per binary and per param, in order.
  EXPECT_NE(text.find("\n    {\"format\": \"cubin\", \"file\": "
                      "\"matmul_0.cubin\", \"size\": 23456, \"fnv1a64\": "
                      "\"9a3c0d2e4f5a6b7c\"},\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n    {\"name\": \"C\", \"role\": \"result\", "
                      "\"element_type\": \"f32\", \"rows\": 4096, \"cols\": "
                      "4096, \"row_stride\": 4096, \"col_stride\": 1, "
                      "\"alignment\": 16, \"access\": \"readwrite\"}\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"c_fill_value\": 0.0}"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(ManifestTest, WriterFormatsNumbers) {
  KernelManifest manifest = makeExampleManifest();
  manifest.problem.cFillValue = -2;
  EXPECT_NE(writeManifestJson(manifest).find("\"c_fill_value\": -2.0}"),
            std::string::npos);
  manifest.problem.cFillValue = 0.5;
  EXPECT_NE(writeManifestJson(manifest).find("\"c_fill_value\": 0.5}"),
            std::string::npos);
  manifest.problem.cFillValue = 1e-300;
  KernelManifest parsed;
  std::string error;
  ASSERT_TRUE(parseManifestJson(writeManifestJson(manifest), parsed, error));
  EXPECT_EQ(parsed.problem.cFillValue, 1e-300);
}

TEST(ManifestTest, FixtureManifestsAreInWriterForm) {
  for (const char *name :
       {"tile_test_matmul_fill.json", "tile_test_matmul_accumulate.json",
        "tile_test_matmul_strided.json", "tile_test_matmul_bf16_tma.json",
        "tile_test_matmul_f16.json"}) {
    std::string text = readFile(fixturePath(name));
    ASSERT_FALSE(text.empty()) << name;
    KernelManifest manifest;
    std::string error;
    ASSERT_TRUE(parseManifestJson(text, manifest, error)) << name << error;
    EXPECT_TRUE(validateManifest(manifest, error)) << name << ": " << error;
    EXPECT_EQ(writeManifestJson(manifest), text) << name;
  }
}

TEST(ManifestTest, EveryTruncationFailsWithEndOfInput) {
  std::string text = exampleJson();
  size_t lastBrace = text.rfind('}');
  for (size_t length = 0; length <= lastBrace; ++length) {
    KernelManifest manifest;
    std::string error;
    ASSERT_FALSE(parseManifestJson(text.substr(0, length), manifest, error))
        << "prefix of " << length << " bytes parsed";
    EXPECT_EQ(error.rfind("manifest: line ", 0), 0u) << error;
    EXPECT_NE(error.find("unexpected end of input"), std::string::npos)
        << length << ": " << error;
  }
}

TEST(ManifestTest, EveryDamagedByteFailsCleanly) {
  // Replacing any one byte with a quote, a brace or a NUL must never crash
  // and, when it fails, must say why.
  std::string text = exampleJson();
  for (char bad : {'"', '}', '\0', ','}) {
    for (size_t i = 0; i < text.size(); ++i) {
      std::string damaged = text;
      damaged[i] = bad;
      KernelManifest manifest;
      std::string error;
      if (!parseManifestJson(damaged, manifest, error)) {
        EXPECT_EQ(error.rfind("manifest: ", 0), 0u) << error;
      }
    }
  }
}

TEST(ManifestTest, SyntaxErrorsHavePositions) {
  // The line and column of the byte where nlohmann's parser stopped, then
  // its description of the error.
  EXPECT_EQ(parseError("{\"format\": \"tile-kernel\" \"version\": 1}"),
            "manifest: line 1, column 34: syntax error while parsing object - "
            "unexpected string literal; expected '}'");
  EXPECT_EQ(parseError("{\n  \"format\": \"tile-kernel\",\n  \"version\" 1\n}"),
            "manifest: line 3, column 13: syntax error while parsing object "
            "separator - unexpected number literal; expected ':'");
  EXPECT_EQ(parseError("[1 2]"),
            "manifest: line 1, column 4: syntax error while parsing array - "
            "unexpected number literal; expected ']'");
  EXPECT_EQ(parseError(""),
            "manifest: line 1, column 1: syntax error while parsing value - "
            "unexpected end of input; expected '[', '{', or a literal");
  EXPECT_EQ(parseError("{\"a\": tru}"),
            "manifest: line 1, column 10: syntax error while parsing value - "
            "invalid literal");
  EXPECT_EQ(parseError("{\"a\": 01}"),
            "manifest: line 1, column 8: syntax error while parsing object - "
            "unexpected number literal; expected '}'");
  EXPECT_EQ(parseError("{\"a\": 1.}"),
            "manifest: line 1, column 9: syntax error while parsing value - "
            "invalid number; expected digit after '.'");
  EXPECT_EQ(parseError("{\"a\": -x}"),
            "manifest: line 1, column 8: syntax error while parsing value - "
            "invalid number; expected digit after '-'");
  EXPECT_EQ(parseError("{\"a\": \"x\\q\"}"),
            "manifest: line 1, column 10: syntax error while parsing value - "
            "invalid string: forbidden character after backslash");
  EXPECT_EQ(parseError("{\"a\": \"\\u12\"}"),
            "manifest: line 1, column 12: syntax error while parsing value - "
            "invalid string: '\\u' must be followed by 4 hex digits");
  EXPECT_EQ(parseError("{\"a\": \"\\ud800x\"}"),
            "manifest: line 1, column 14: syntax error while parsing value - "
            "invalid string: surrogate U+D800..U+DBFF must be followed by "
            "U+DC00..U+DFFF");
  EXPECT_EQ(parseError("{\"a\": \"ab\ncd\"}"),
            "manifest: line 1, column 10: syntax error while parsing value - "
            "invalid string: control character U+000A (LF) must be escaped to "
            "\\u000A or \\n");
  EXPECT_EQ(parseError("{\"a\": \"a\tb\"}"),
            "manifest: line 1, column 9: syntax error while parsing value - "
            "invalid string: control character U+0009 (HT) must be escaped to "
            "\\u0009 or \\t");
  EXPECT_EQ(parseError("{\"a\": 1} x"),
            "manifest: line 1, column 10: syntax error while parsing value - "
            "invalid literal; expected end of input");
  EXPECT_EQ(parseError("{1: 2}"),
            "manifest: line 1, column 2: syntax error while parsing object key "
            "- unexpected number literal; expected string literal");
  EXPECT_EQ(parseError("{\"a\": 1,}"),
            "manifest: line 1, column 9: syntax error while parsing object key "
            "- unexpected '}'; expected string literal");
  EXPECT_EQ(parseError("{\"a\": @}"),
            "manifest: line 1, column 7: syntax error while parsing value - "
            "invalid literal");
  EXPECT_EQ(parseError("{\"a\": 1e999}"),
            "manifest: line 1, column 11: number overflow parsing '1e999'");
  // A cut-off literal or number reads past the end: that is what it says.
  EXPECT_EQ(parseError("{\"a\": tr"),
            "manifest: line 1, column 9: unexpected end of input (syntax error "
            "while parsing value - invalid literal)");
  EXPECT_EQ(parseError("{\"a\":\n 0."),
            "manifest: line 2, column 4: unexpected end of input (syntax error "
            "while parsing value - invalid number; expected digit after '.')");
}

TEST(ManifestTest, WhatTheTreeCannotTellIsChecked) {
  // nlohmann's tree keeps the last of two equal keys, has no depth limit and
  // takes \u0000 into strings: the reader refuses all three, saying where.
  EXPECT_EQ(parseError("{\"a\": 1, \"a\": 2}"),
            "manifest: duplicate field 'a'");
  EXPECT_EQ(parseError(replaced(exampleJson(), "\"grid\"",
                                "\"block\": [1, 1, 1], \"grid\"")),
            "manifest: duplicate field 'launch.block'");
  EXPECT_EQ(parseError("{\"a\": [{}, {\"b\": 1, \"b\": 1}]}"),
            "manifest: duplicate field 'a[1].b'");
  EXPECT_EQ(parseError("{\"a\": \"\\u0000\"}"),
            "manifest: field 'a' contains \\u0000, which a manifest string "
            "may not");
  EXPECT_EQ(parseError("{\"a\": [1, {\"b\\u0000\": 1}]}"),
            "manifest: a key in 'a[1]' contains \\u0000, which a manifest "
            "string may not");
  EXPECT_EQ(
      parseError(std::string(100, '[')),
      "manifest: nesting deeper than 32 levels at '" +
          [] {
            std::string path;
            for (int i = 0; i < 32; ++i)
              path += "[0]";
            return path;
          }() +
          "'");
  EXPECT_EQ(
      parseError("{\"a\": " + std::string(31, '[') + std::string(31, ']') + "}")
          .find("nesting"),
      std::string::npos);
}

TEST(ManifestTest, StringEscapesDecode) {
  KernelManifest manifest = makeExampleManifest();
  std::string text = replaced(exampleJson(), "\"#tile.config<...>\"",
                              "\"\\u00e9\\ud83d\\ude00\\/\\b\\f\"");
  std::string error;
  ASSERT_TRUE(parseManifestJson(text, manifest, error)) << error;
  EXPECT_EQ(manifest.config.text, "\xc3\xa9\xf0\x9f\x98\x80/\b\f");
}

TEST(ManifestTest, QuoteJson) {
  EXPECT_EQ(quoteJson("plain"), "\"plain\"");
  EXPECT_EQ(quoteJson("q\" b\\ n\n t\t r\r \x01 \x1f \x7f"),
            "\"q\\\" b\\\\ n\\n t\\t r\\r \\u0001 \\u001f \x7f\"");
  EXPECT_EQ(quoteJson("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  // Bytes that are not UTF-8 become U+FFFD instead of failing.
  EXPECT_EQ(quoteJson("bad \xff byte"), "\"bad \xef\xbf\xbd byte\"");
  EXPECT_EQ(quoteJson(std::string("nul \0 x", 7)), "\"nul \\u0000 x\"");
}

TEST(ManifestTest, WriterReplacesBytesThatAreNotUtf8) {
  KernelManifest manifest = makeExampleManifest();
  manifest.config.text = "cut \xe2\x82 off";
  KernelManifest parsed;
  std::string error;
  ASSERT_TRUE(parseManifestJson(writeManifestJson(manifest), parsed, error))
      << error;
  EXPECT_EQ(parsed.config.text, "cut \xef\xbf\xbd off");
}

TEST(ManifestTest, RandomInputNeverAborts) {
  // Random edits of a valid manifest and random bytes: every failure is
  // one line starting with "manifest: ", and nothing aborts.
  std::string text = exampleJson();
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  const char pieces[] = "{}[]\",:0123456789.eE+-tfnul\\ \n\x80\xff";
  for (int round = 0; round < 2000; ++round) {
    std::string damaged = text;
    int edits = 1 + next() % 4;
    for (int e = 0; e < edits; ++e) {
      size_t at = next() % damaged.size();
      char piece = pieces[next() % (sizeof(pieces) - 1)];
      switch (next() % 3) {
      case 0:
        damaged[at] = piece;
        break;
      case 1:
        damaged.insert(damaged.begin() + at, piece);
        break;
      default:
        damaged.erase(at, 1 + next() % 8);
        break;
      }
    }
    KernelManifest manifest;
    std::string error;
    if (!parseManifestJson(damaged, manifest, error)) {
      EXPECT_EQ(error.rfind("manifest: ", 0), 0u) << error;
      EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    } else {
      validateManifest(manifest, error);
      writeManifestJson(manifest);
    }
  }
  for (int round = 0; round < 500; ++round) {
    std::string bytes(next() % 64, '\0');
    for (char &c : bytes)
      c = static_cast<char>(next());
    KernelManifest manifest;
    std::string error;
    EXPECT_FALSE(parseManifestJson(bytes, manifest, error));
    EXPECT_EQ(error.rfind("manifest: ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST(ManifestTest, FormatAndVersionAreCheckedFirst) {
  std::string text = exampleJson();
  // A version 3 manifest may have other fields: the version is the message.
  EXPECT_EQ(
      parseError(replaced(replaced(text, "\"version\": 2", "\"version\": 3"),
                          "\"launch\"", "\"launch2\"")),
      "manifest: unsupported format version 3 (this runtime reads "
      "version 2)");
  // Version 1 lacks fields version 2 requires: compile the kernel again.
  std::string version1 =
      replaced(replaced(replaced(text, "\"version\": 2", "\"version\": 1"),
                        "  \"tensor_maps\": [],\n", ""),
               "\"cluster\": [1, 1, 1], ", "");
  EXPECT_EQ(parseError(version1),
            "manifest: unsupported format version 1 (this runtime reads "
            "version 2): the artifact was written by an older tile-opt; "
            "compile the kernel again");
  EXPECT_EQ(parseError(replaced(text, "\"version\": 2", "\"version\": \"2\"")),
            "manifest: field 'version' must be an integer (got \"2\")");
  EXPECT_EQ(parseError(replaced(text, "  \"version\": 2,\n", "")),
            "manifest: missing field 'version'");
  EXPECT_EQ(parseError(replaced(text, "\"tile-kernel\"", "\"other\"")),
            "manifest: field 'format' must be \"tile-kernel\" (got \"other\"): "
            "this is not a tile kernel manifest");
  EXPECT_EQ(parseError(replaced(text, "  \"format\": \"tile-kernel\",\n", "")),
            "manifest: missing field 'format'");
  EXPECT_EQ(parseError("[]"),
            "manifest: the top level must be a JSON object (got an array)");
}

TEST(ManifestTest, MissingFieldsAreNamed) {
  std::string text = exampleJson();
  EXPECT_EQ(parseError(replaced(text, "\"grid\": [1024, 1, 1], ", "")),
            "manifest: missing field 'launch.grid'");
  EXPECT_EQ(parseError(replaced(text, ", \"stack_bytes\": 0", "")),
            "manifest: missing field 'resources.stack_bytes'");
  EXPECT_EQ(parseError(replaced(text, "\"file\": \"matmul_0.ptx\", ", "")),
            "manifest: missing field 'binaries[1].file'");
  EXPECT_EQ(parseError(replaced(text, "\"name\": \"B\", ", "")),
            "manifest: missing field 'params[1].name'");
  EXPECT_EQ(parseError(replaced(text, "\"kernel\": \"matmul_0\",", "")),
            "manifest: missing field 'kernel'");
}

TEST(ManifestTest, WrongTypesAreNamed) {
  std::string text = exampleJson();
  EXPECT_EQ(parseError(replaced(text, "\"block\": [256, 1, 1]",
                                "\"block\": [256, 1]")),
            "manifest: field 'launch.block' must be 3 positive integers (got "
            "an array)");
  EXPECT_EQ(parseError(replaced(text, "\"block\": [256, 1, 1]",
                                "\"block\": [256, 0, 1]")),
            "manifest: field 'launch.block' must be 3 positive integers (got "
            "0 at index 1)");
  EXPECT_EQ(parseError(
                replaced(text, "\"grid\": [1024, 1, 1]", "\"grid\": \"1024\"")),
            "manifest: field 'launch.grid' must be 3 positive integers (got "
            "\"1024\")");
  EXPECT_EQ(parseError(replaced(text, "\"m\": 4096", "\"m\": \"4096\"")),
            "manifest: field 'problem.m' must be an integer (got \"4096\")");
  EXPECT_EQ(parseError(replaced(text, "\"m\": 4096", "\"m\": 4096.5")),
            "manifest: field 'problem.m' must be an integer (got 4096.5)");
  EXPECT_EQ(parseError(replaced(text, "\"k\": 4096", "\"k\": -1")),
            "manifest: field 'problem.k' must be an integer in [1, "
            "9223372036854775807] (got -1)");
  // Beyond 64 bits nlohmann reads a double.
  EXPECT_EQ(
      parseError(replaced(text, "\"m\": 4096", "\"m\": 99999999999999999999")),
      "manifest: field 'problem.m' must be an integer (got 1e+20)");
  EXPECT_EQ(
      parseError(replaced(text, "\"m\": 4096", "\"m\": 9223372036854775808")),
      "manifest: field 'problem.m' must be an integer (got "
      "9223372036854775808)");
  EXPECT_EQ(parseError(replaced(text, "\"dynamic_shared_bytes\": 33280",
                                "\"dynamic_shared_bytes\": 4294967296")),
            "manifest: field 'launch.dynamic_shared_bytes' must be an integer "
            "in [0, 4294967295] (got 4294967296)");
  EXPECT_EQ(parseError(replaced(text, "\"c_fill_value\": 0.0",
                                "\"c_fill_value\": null")),
            "manifest: field 'problem.c_fill_value' must be a number (got "
            "null)");
  EXPECT_EQ(parseError(replaced(text, "\"c_fill_value\": 0.0",
                                "\"c_fill_value\": 1e999")),
            "manifest: line 11, column 142: number overflow parsing '1e999'");
  EXPECT_EQ(parseError(replaced(text, "\"accumulate\"", "\"zero\"")),
            "manifest: field 'problem.c_init' must be \"fill\" or "
            "\"accumulate\" (got \"zero\")");
  EXPECT_EQ(parseError(replaced(text, "\"format\": \"cubin\"",
                                "\"format\": \"sass\"")),
            "manifest: field 'binaries[0].format' must be \"cubin\" or \"ptx\" "
            "(got \"sass\")");
  EXPECT_EQ(
      parseError(replaced(text, "\"role\": \"rhs\"", "\"role\": \"lhs2\"")),
      "manifest: field 'params[1].role' must be \"lhs\", \"rhs\", "
      "\"result\" or \"epilogue\" (got \"lhs2\")");
  EXPECT_EQ(
      parseError(replaced(text, "\"prefetch\": true", "\"prefetch\": \"yes\"")),
      "manifest: field 'config.prefetch' must be true or false (got "
      "\"yes\")");
  EXPECT_EQ(parseError(replaced(text, "\"target\": {", "\"target\": [{")),
            "manifest: line 6, column 13: syntax error while parsing array - "
            "unexpected ':'; expected ']'");
  EXPECT_EQ(parseError(replaced(text, "\"launch\": {\"grid\"",
                                "\"launch\": 3, \"x\": {\"grid\"")),
            "manifest: field 'launch' must be an object (got 3)");
  EXPECT_EQ(parseError(replaced(text, "\"params\": [", "\"params\": [7, ")),
            "manifest: field 'params[0]' must be an object (got 7)");
}

TEST(ManifestTest, BadHashesAreRejected) {
  std::string text = exampleJson();
  for (const char *bad : {"9A3C0D2E4F5A6B7C", "9a3c0d2e4f5a6b7", "xyz",
                          "9a3c0d2e4f5a6b7c0", "9a3c0d2e4f5a6b7g"}) {
    EXPECT_EQ(parseError(replaced(text, "9a3c0d2e4f5a6b7c", bad)),
              std::string("manifest: field 'binaries[0].fnv1a64' must be 16 "
                          "lowercase hex digits (got \"") +
                  bad + "\")");
  }
}

TEST(ManifestTest, UnknownFieldsAreRejected) {
  std::string text = exampleJson();
  EXPECT_EQ(parseError(replaced(text, "\"grid\"", "\"gird\": [1], \"grid\"")),
            "manifest: unknown field 'launch.gird'");
  EXPECT_EQ(parseError(replaced(
                text, "\"kernel\":", "\"comment\": \"x\",\n  \"kernel\":")),
            "manifest: unknown field 'comment'");
  EXPECT_EQ(parseError(replaced(text, "\"name\": \"A\", ",
                                "\"name\": \"A\", \"shape\": 1, ")),
            "manifest: unknown field 'params[0].shape'");
}

TEST(ManifestTest, Fnv1a64KnownValues) {
  EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
}

TEST(ManifestTest, Hex64) {
  EXPECT_EQ(formatHex64(0), "0000000000000000");
  EXPECT_EQ(formatHex64(0x0123456789abcdefull), "0123456789abcdef");
  uint64_t value = 0;
  EXPECT_TRUE(parseHex64("fedcba9876543210", value));
  EXPECT_EQ(value, 0xfedcba9876543210ull);
  EXPECT_FALSE(parseHex64("FEDCBA9876543210", value));
  EXPECT_FALSE(parseHex64("fedcba987654321", value));
  EXPECT_FALSE(parseHex64("", value));
  EXPECT_FALSE(parseHex64("0x23456789abcdef", value));
}

TEST(ManifestTest, Chips) {
  ChipVersion chip;
  ASSERT_TRUE(parseChip("sm_90", chip));
  EXPECT_EQ(chip.major, 9);
  EXPECT_EQ(chip.minor, 0);
  EXPECT_EQ(chip.suffix, 0);
  ASSERT_TRUE(parseChip("sm_86", chip));
  EXPECT_EQ(chip.major, 8);
  EXPECT_EQ(chip.minor, 6);
  ASSERT_TRUE(parseChip("sm_90a", chip));
  EXPECT_EQ(chip.suffix, 'a');
  ASSERT_TRUE(parseChip("sm_100f", chip));
  EXPECT_EQ(chip.major, 10);
  EXPECT_EQ(chip.minor, 0);
  EXPECT_EQ(chip.suffix, 'f');
  for (const char *bad : {"", "sm90", "sm_9", "sm_09", "sm_1000", "sm_90b",
                          "gfx90a", "SM_90", "sm_90aa", "compute_90"})
    EXPECT_FALSE(parseChip(bad, chip)) << bad;
}

TEST(ManifestTest, PtxVersions) {
  int major = 0, minor = 0;
  ASSERT_TRUE(parsePtxVersion("8.0", major, minor));
  EXPECT_EQ(major, 8);
  EXPECT_EQ(minor, 0);
  ASSERT_TRUE(parsePtxVersion("10.1", major, minor));
  EXPECT_EQ(major, 10);
  EXPECT_EQ(minor, 1);
  for (const char *bad : {"", "8", "8.", ".0", "8.10", "a.0", "8.0.1", "123.0"})
    EXPECT_FALSE(parsePtxVersion(bad, major, minor)) << bad;
}

TEST(ManifestTest, RequiredElements) {
  ParamInfo param = makeExampleManifest().params[0];
  uint64_t elements = 0, bytes = 0;
  ASSERT_TRUE(getRequiredElements(param, 1, elements));
  EXPECT_EQ(elements, 4096u * 4096u);
  ASSERT_TRUE(getRequiredBytes(param, 1, bytes));
  EXPECT_EQ(bytes, 4096u * 4096u * 4u);
  // Column-major with padding: the last column starts at 3*104.
  param.rows = 100;
  param.cols = 4;
  param.rowStride = 1;
  param.colStride = 104;
  ASSERT_TRUE(getRequiredElements(param, 1, elements));
  EXPECT_EQ(elements, 3u * 104u + 99u + 1u);
  // A batch of 3 matrices 1000 elements apart: two strides more. With a
  // batch of 1 the batch stride is not used.
  param.batchStride = 1000;
  ASSERT_TRUE(getRequiredElements(param, 3, elements));
  EXPECT_EQ(elements, 2u * 1000u + 3u * 104u + 99u + 1u);
  ASSERT_TRUE(getRequiredBytes(param, 3, bytes));
  EXPECT_EQ(bytes, (2u * 1000u + 3u * 104u + 99u + 1u) * 4u);
  ASSERT_TRUE(getRequiredElements(param, 1, elements));
  EXPECT_EQ(elements, 3u * 104u + 99u + 1u);
  EXPECT_FALSE(getRequiredElements(param, 0, elements));
  param.batchStride = 1ll << 62;
  EXPECT_FALSE(getRequiredElements(param, 5, elements));
  param.batchStride = -1;
  EXPECT_FALSE(getRequiredElements(param, 2, elements));
  param.batchStride = 0;
  param.rows = 1ll << 40;
  param.rowStride = 1ll << 40;
  EXPECT_FALSE(getRequiredElements(param, 1, elements));
  param.rows = 0;
  EXPECT_FALSE(getRequiredElements(param, 1, elements));
}

TEST(ManifestTest, ConfigShortForm) {
  ConfigInfo config = makeExampleManifest().config;
  EXPECT_EQ(formatConfigShort(config), "128x128x8/32x64/8x8/s2/g8/pad4/pf");
  config.smem = "xor";
  config.prefetch = false;
  EXPECT_EQ(formatConfigShort(config), "128x128x8/32x64/8x8/s2/g8/xor/nopf");
  // The FMA form ignores the fields it never showed.
  config.copy = CopyKind::CpAsync;
  config.stages = 3;
  config.occupancy = 2;
  config.splitK = 4;
  config.cluster = {2, 1};
  config.persistent = true;
  EXPECT_EQ(formatConfigShort(config),
            "128x128x8/32x64/8x8/s3/g8/xor/nopf/o2/sk4");
}

TEST(ManifestTest, WgmmaConfigShortForm) {
  ConfigInfo config = makeWgmmaExampleManifest().config;
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8/c2x1/o1");
  config.cluster = {1, 1};
  config.occupancy = 0;
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8");
  // Repacked operands, as the compiler's short form shows them.
  config.repack = true;
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/tma/rp/ws/g8");
  config.repack = false;
  config.copy = CopyKind::CpAsync;
  config.specialize = false;
  config.smem = "pad";
  config.smemPad = 8;
  config.persistent = true;
  config.splitK = 2;
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/cpasync/g8/pad8/p/sk2");
  config.copy = CopyKind::Registers;
  config.smem = "none";
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/regs/g8/none/p/sk2");
  // Only the last 21 tiles split (as the compiler's short form shows it).
  config.splitLast = 21;
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/regs/g8/none/p/sk2l21");
}

TEST(ManifestTest, SplitLastRoundTripsAndIsOptional) {
  // Written only when set, read back; a manifest without it has 0.
  KernelManifest original = makeWgmmaExampleManifest();
  original.config.cluster = {1, 1};
  original.config.splitK = 6;
  original.config.splitLast = 21;
  std::string json = writeManifestJson(original);
  EXPECT_NE(json.find("\"split_last\": 21"), std::string::npos) << json;
  KernelManifest parsed;
  std::string error;
  ASSERT_TRUE(parseManifestJson(json, parsed, error)) << error;
  EXPECT_EQ(parsed, original);
  EXPECT_EQ(parsed.config.splitLast, 21);
  EXPECT_EQ(writeManifestJson(makeWgmmaExampleManifest()).find("split_last"),
            std::string::npos);
  // 0 is not written, so a written value below 1 is malformed.
  std::string zero = json;
  const std::string written = "\"split_last\": 21";
  zero.replace(zero.find(written), written.size(), "\"split_last\": 0");
  EXPECT_FALSE(parseManifestJson(zero, parsed, error));
  EXPECT_NE(error.find("split_last"), std::string::npos) << error;
}

TEST(ManifestTest, FindParamAndBinary) {
  KernelManifest manifest = makeExampleManifest();
  ASSERT_NE(findParam(manifest, ParamRole::Rhs), nullptr);
  EXPECT_EQ(findParam(manifest, ParamRole::Rhs)->name, "B");
  ASSERT_NE(findBinary(manifest, BinaryFormat::Ptx), nullptr);
  EXPECT_EQ(findBinary(manifest, BinaryFormat::Ptx)->file, "matmul_0.ptx");
  manifest.binaries.pop_back();
  EXPECT_EQ(findBinary(manifest, BinaryFormat::Ptx), nullptr);
}

TEST(ManifestTest, ValidExampleValidates) {
  std::string error;
  EXPECT_TRUE(validateManifest(makeExampleManifest(), error)) << error;
}

TEST(ManifestTest, ValidationErrors) {
  KernelManifest base = makeExampleManifest();
  KernelManifest m = base;
  m.params.pop_back();
  EXPECT_EQ(validationError(m), "manifest: a matmul kernel takes 3 params "
                                "(lhs, rhs, result) and one per epilogue "
                                "operand (0), the manifest lists 2");
  m = base;
  m.params[1].role = ParamRole::Lhs;
  EXPECT_EQ(validationError(m), "manifest: 2 params have role \"lhs\", "
                                "expected exactly one");
  m = base;
  m.params[0].cols = 512;
  EXPECT_EQ(validationError(m), "manifest: param \"A\" (lhs) is 4096x512 but "
                                "the problem's m x k is 4096x4096");
  m = base;
  m.problem.n = 2048;
  EXPECT_EQ(validationError(m), "manifest: param \"B\" (rhs) is 4096x4096 but "
                                "the problem's k x n is 4096x2048");
  m = base;
  m.launch.block = {32, 32, 2};
  EXPECT_EQ(validationError(m), "manifest: launch block 32x32x2 has 2048 "
                                "threads; the limit is 1024 (and 64 in z)");
  m = base;
  m.launch.grid = {1, 70000, 1};
  EXPECT_NE(validationError(m).find("is over the limits"), std::string::npos);
  m = base;
  m.target.chip = "gfx90a";
  EXPECT_EQ(validationError(m), "manifest: unsupported chip \"gfx90a\" in "
                                "'target.chip' (expected an NVIDIA chip name "
                                "like \"sm_90\")");
  m = base;
  m.target.ptxVersion = "eight";
  EXPECT_EQ(validationError(m), "manifest: field 'target.ptx_version' must "
                                "look like \"8.0\" (got \"eight\")");
  m = base;
  m.binaries[1].format = BinaryFormat::Cubin;
  EXPECT_EQ(validationError(m), "manifest: two binaries of format \"cubin\"");
  m = base;
  m.binaries[0].file = "/tmp/x.cubin";
  EXPECT_EQ(validationError(m), "manifest: binary file \"/tmp/x.cubin\" must "
                                "be relative to the manifest's folder");
  m = base;
  m.binaries.clear();
  EXPECT_EQ(validationError(m), "manifest: no binaries listed");
  m = base;
  m.params[2].access = ParamAccess::Write;
  EXPECT_EQ(validationError(m), "manifest: param \"C\" (result) must have "
                                "access \"readwrite\" when c_init is "
                                "\"accumulate\" (got \"write\")");
  m = base;
  m.problem.cInit = CInit::Fill;
  m.params[2].access = ParamAccess::Read;
  EXPECT_EQ(validationError(m), "manifest: param \"C\" (result) must be "
                                "written (access \"write\" or \"readwrite\", "
                                "got \"read\")");
  m = base;
  m.params[0].access = ParamAccess::ReadWrite;
  EXPECT_EQ(validationError(m), "manifest: param \"A\" (lhs) must have access "
                                "\"read\" (got \"readwrite\")");
  m = base;
  m.params[2].rowStride = 1;
  m.params[2].colStride = 1;
  EXPECT_EQ(validationError(m), "manifest: param \"C\" (result) layout maps "
                                "two elements to one address (row_stride 1, "
                                "col_stride 1)");
  m = base;
  m.params[1].rowStride = 0;
  EXPECT_EQ(validationError(m), "manifest: param \"B\" (rhs) strides must be "
                                "positive (row_stride 0, col_stride 1)");
  m = base;
  m.params[1].alignment = 12;
  EXPECT_EQ(validationError(m), "manifest: param \"B\" (rhs) alignment 12 is "
                                "not a power of two");
  m = base;
  m.params[1].name = "A";
  EXPECT_EQ(validationError(m), "manifest: two params are named \"A\"");
  m = base;
  m.kernel = "";
  EXPECT_EQ(validationError(m), "manifest: field 'kernel' must not be empty");
  m = base;
  m.version = 3;
  EXPECT_EQ(validationError(m), "manifest: unsupported format version 3 (this "
                                "runtime reads version 2)");
  m.version = 1;
  EXPECT_EQ(validationError(m), "manifest: unsupported format version 1 (this "
                                "runtime reads version 2): the artifact was "
                                "written by an older tile-opt; compile the "
                                "kernel again");
  m = base;
  m.resources.registers = -2;
  EXPECT_EQ(validationError(m), "manifest: resources must be counts, or -1 "
                                "when unknown");
}

TEST(ManifestTest, Version2FieldsAreParsedStrictly) {
  std::string text = writeManifestJson(makeWgmmaExampleManifest());
  EXPECT_EQ(parseError(replaced(text, "\"cluster\": [2, 1, 1], ", "")),
            "manifest: missing field 'launch.cluster'");
  EXPECT_EQ(parseError(replaced(text, "\"cluster\": [2, 1, 1]",
                                "\"cluster\": [2, 0, 1]")),
            "manifest: field 'launch.cluster' must be 3 positive integers (got "
            "0 at index 1)");
  EXPECT_EQ(parseError(replaced(text, "\"accumulator_type\": \"f32\", ", "")),
            "manifest: missing field 'problem.accumulator_type'");
  EXPECT_EQ(parseError(replaced(text, "\"accumulator_type\": \"f32\"",
                                "\"accumulator_type\": \"fp32\"")),
            "manifest: field 'problem.accumulator_type' must be \"f32\", "
            "\"f16\", \"bf16\", \"i8\", \"i32\" or \"f64\" (got \"fp32\")");
  EXPECT_EQ(
      parseError(replaced(text, "  \"tensor_maps\": [\n", "  \"maps\": [\n")),
      "manifest: missing field 'tensor_maps'");
  EXPECT_EQ(parseError(replaced(text, "\"box\": [128, 64]", "\"box\": [128]")),
            "manifest: field 'tensor_maps[0].box' must be 2 positive integers "
            "(rows, cols) (got an array)");
  EXPECT_EQ(
      parseError(replaced(text, "\"box\": [64, 64], \"swizzle\": \"128B\"",
                          "\"box\": [64, 64], \"swizzle\": \"16B\"")),
      "manifest: field 'tensor_maps[1].swizzle' must be \"none\", \"32B\", "
      "\"64B\" or \"128B\" (got \"16B\")");
  EXPECT_EQ(parseError(replaced(text,
                                "\"box\": [64, 64], \"swizzle\": \"128B\", "
                                "\"l2_promotion\": \"256B\"",
                                "\"box\": [64, 64], \"swizzle\": \"128B\", "
                                "\"l2_promotion\": \"32B\"")),
            "manifest: field 'tensor_maps[1].l2_promotion' must be \"none\", "
            "\"64B\", \"128B\" or \"256B\" (got \"32B\")");
  EXPECT_EQ(parseError(replaced(text, "{\"param\": \"A\", ",
                                "{\"param\": \"A\", \"rank\": 2, ")),
            "manifest: unknown field 'tensor_maps[0].rank'");
  EXPECT_EQ(parseError(replaced(text, "{\"param\": \"A\", ", "{")),
            "manifest: missing field 'tensor_maps[0].param'");
  EXPECT_EQ(parseError(replaced(text, "\"tensor_maps\": [\n",
                                "\"tensor_maps\": [\n    \"A\",\n")),
            "manifest: field 'tensor_maps[0]' must be an object (got \"A\")");
  EXPECT_EQ(parseError(replaced(text, "\"strategy\": \"wgmma\"",
                                "\"strategy\": \"mma\"")),
            "manifest: field 'config.strategy' must be \"fma\" or \"wgmma\" "
            "(got \"mma\")");
  EXPECT_EQ(
      parseError(replaced(text, "\"copy\": \"tma\"", "\"copy\": \"bulk\"")),
      "manifest: field 'config.copy' must be \"registers\", \"cp_async\" "
      "or \"tma\" (got \"bulk\")");
  EXPECT_EQ(
      parseError(replaced(text, "\"specialize\": true", "\"specialize\": 1")),
      "manifest: field 'config.specialize' must be true or false (got 1)");
  EXPECT_EQ(parseError(
                replaced(text, "\"mma\": [64, 256, 16]", "\"mma\": [64, 256]")),
            "manifest: field 'config.mma' must be 3 positive integers (got an "
            "array)");
  EXPECT_EQ(parseError(replaced(text, "\"cluster\": [2, 1], ",
                                "\"cluster\": [2, -1], ")),
            "manifest: field 'config.cluster' must be 2 positive integers (got "
            "-1 at index 1)");
  EXPECT_EQ(parseError(replaced(text, "\"persistent\": false, ", "")),
            "manifest: missing field 'config.persistent'");
}

TEST(ManifestTest, WgmmaExampleValidates) {
  std::string error;
  EXPECT_TRUE(validateManifest(makeWgmmaExampleManifest(), error)) << error;
  // f16 inputs with an f32 result; a cluster along y; 16 blocks (not
  // portable, but allowed).
  KernelManifest m = makeWgmmaExampleManifest();
  m.problem.elementType = ElementType::F16;
  m.params[0].elementType = m.params[1].elementType = ElementType::F16;
  m.params[2].elementType = ElementType::F32;
  m.launch.grid = {16, 32, 1};
  m.launch.cluster = {1, 16, 1};
  m.config.cluster = {16, 1};
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // Swizzle spans: 16 bytes of box for 32B, 32 for 32B, 64 for 64B.
  m.tensorMaps[0].box = {256, 8};
  m.tensorMaps[0].swizzle = TensorMapSwizzle::B32;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.tensorMaps[0].box = {1, 16};
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.tensorMaps[0].box = {64, 32};
  m.tensorMaps[0].swizzle = TensorMapSwizzle::B64;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.tensorMaps[0].box = {64, 256};
  m.tensorMaps[0].swizzle = TensorMapSwizzle::None;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // An f32 kernel may use tensor maps too.
  KernelManifest f32 = makeExampleManifest();
  f32.target.chip = "sm_90";
  f32.tensorMaps = {
      {"B", {8, 32}, TensorMapSwizzle::B128, TensorMapL2Promotion::None}};
  EXPECT_TRUE(validateManifest(f32, error)) << error;
}

TEST(ManifestTest, Version2ValidationErrors) {
  const KernelManifest base = makeWgmmaExampleManifest();
  KernelManifest m = base;
  // Element types.
  m.problem.elementType = ElementType::I8;
  EXPECT_EQ(validationError(m), "manifest: element type \"i8\" in "
                                "'problem.element_type' is not supported "
                                "(\"f32\", \"bf16\" or \"f16\")");
  m = base;
  m.problem.accumulatorType = ElementType::F16;
  EXPECT_EQ(validationError(m), "manifest: field 'problem.accumulator_type' "
                                "must be \"f32\" (got \"f16\")");
  m = base;
  m.params[1].elementType = ElementType::F16;
  EXPECT_EQ(validationError(m), "manifest: param \"B\" (rhs) has element type "
                                "\"f16\" but the problem's element_type is "
                                "\"bf16\"");
  m = base;
  m.params[2].elementType = ElementType::F16;
  EXPECT_EQ(validationError(m), "manifest: param \"C\" (result) has element "
                                "type \"f16\"; a result is \"f32\" or the "
                                "problem's element_type \"bf16\"");
  KernelManifest f32 = makeExampleManifest();
  f32.params[2].elementType = ElementType::BF16;
  EXPECT_EQ(validationError(f32), "manifest: param \"C\" (result) has element "
                                  "type \"bf16\" but f32 inputs need an f32 "
                                  "result");
  f32 = makeExampleManifest();
  f32.params[0].elementType = ElementType::BF16;
  EXPECT_EQ(validationError(f32), "manifest: param \"A\" (lhs) has element "
                                  "type \"bf16\" but the problem's "
                                  "element_type is \"f32\"");

  // Clusters.
  m = base;
  m.launch.cluster = {4, 4, 2};
  m.launch.grid = {512, 4, 2};
  EXPECT_EQ(validationError(m), "manifest: launch cluster 4x4x2 has 32 blocks; "
                                "the limit is 16 (8 portable)");
  m = base;
  m.launch.grid = {511, 1, 1};
  EXPECT_EQ(validationError(m), "manifest: launch grid 511x1x1 is not a whole "
                                "number of clusters 2x1x1");
  m = base;
  m.launch.cluster = {1, 1, 1};
  EXPECT_EQ(validationError(m), "manifest: config cluster 2x1 and launch "
                                "cluster 1x1x1 do not have the same number of "
                                "blocks");
  m = base;
  m.launch.cluster = {1, 1, 0};
  EXPECT_EQ(validationError(m),
            "manifest: launch cluster dimensions must be positive");
  m = makeExampleManifest();
  m.target.chip = "sm_80";
  m.launch.cluster = {2, 1, 1};
  m.config.cluster = {1, 2};
  EXPECT_EQ(validationError(m), "manifest: thread block clusters (launch "
                                "cluster 2x1x1) need sm_90 or newer "
                                "(target.chip is \"sm_80\")");

  // Tensor maps.
  m = base;
  m.tensorMaps[1].param = "X";
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[1] names param \"X\", "
                                "which the manifest does not have");
  m = base;
  m.tensorMaps[0].param = "C";
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[0] views param \"C\" "
                                "(result) but config.store is \"registers\": "
                                "only a kernel that stores C through the TMA "
                                "(store \"tma\") takes a tensor map of its "
                                "result");
  m = base;
  m.params[1].rowStride = 2;
  m.params[1].colStride = 8192;
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[1] views param \"B\" "
                                "(rhs) with row_stride 2 and col_stride 8192; "
                                "a tensor map needs row_stride or col_stride 1 "
                                "(a row- or column-major matrix)");
  // A column-major B (stored transposed, N x K) is mapped as stored: its
  // rows are its columns, col_stride apart.
  m = base;
  m.params[1].rowStride = 1;
  m.params[1].colStride = 4096;
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  ParamInfo stored = getStoredMatrix(m.params[1]);
  EXPECT_EQ(stored.rows, m.params[1].cols);
  EXPECT_EQ(stored.cols, m.params[1].rows);
  EXPECT_EQ(stored.rowStride, 4096);
  EXPECT_EQ(stored.colStride, 1);
  // One row with both strides 1 (a transposed B with K = 1) is N rows of
  // one element; one column is what it says (rows of one element).
  ParamInfo row = m.params[1];
  row.rows = 1;
  row.cols = 128;
  row.colStride = 1;
  EXPECT_EQ(getStoredMatrix(row).rows, 128);
  EXPECT_EQ(getStoredMatrix(row).cols, 1);
  ParamInfo column = row;
  column.rows = 128;
  column.cols = 1;
  EXPECT_EQ(getStoredMatrix(column).rows, 128);
  EXPECT_EQ(getStoredMatrix(column).cols, 1);
  ParamInfo rowMajor = row;
  rowMajor.rowStride = 128;
  EXPECT_EQ(getStoredMatrix(rowMajor).rows, 1);
  EXPECT_EQ(getStoredMatrix(rowMajor).cols, 128);
  // Its rows must still be a multiple of 16 bytes apart.
  m.params[1].colStride = 4097;
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[1] views param \"B\" "
                                "(rhs) whose rows are 8194 bytes apart "
                                "(row_stride 4097); the TMA needs a multiple "
                                "of 16 bytes below 2^40 (or "
                                "repack_row_stride)");
  m = base;
  m.tensorMaps[0].box = {257, 64};
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[0] box 257x64 (rows x "
                                "cols) must be 1 to 256 elements in each "
                                "dimension");
  m = base;
  m.tensorMaps[0].box = {128, 0};
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[0] box 128x0 (rows x "
                                "cols) must be 1 to 256 elements in each "
                                "dimension");
  m = base;
  m.tensorMaps[1].box = {64, 12};
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[1] box of 12 bf16 "
                                "columns is 24 bytes wide; the TMA needs a "
                                "multiple of 16 bytes");
  m = base;
  m.tensorMaps[1].box = {64, 128};
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[1] box of 128 bf16 "
                                "columns is 256 bytes wide, more than its "
                                "128B swizzle span");
  m.tensorMaps[1].box = {64, 32};
  m.tensorMaps[1].swizzle = TensorMapSwizzle::B32;
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[1] box of 32 bf16 "
                                "columns is 64 bytes wide, more than its 32B "
                                "swizzle span");
  m = base;
  m.params[0].rowStride = 4100;
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[0] views param \"A\" "
                                "(lhs) whose rows are 8200 bytes apart "
                                "(row_stride 4100); the TMA needs a multiple "
                                "of 16 bytes below 2^40 (or "
                                "repack_row_stride)");
  m = base;
  m.params[0].alignment = 8;
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[0] views param \"A\" "
                                "(lhs) with alignment 8; the TMA needs 16-byte "
                                "aligned base pointers");
  m = base;
  m.tensorMaps.resize(9, m.tensorMaps[0]);
  EXPECT_EQ(validationError(m),
            "manifest: 9 tensor maps; a kernel takes at most 8");
  m = makeExampleManifest();
  m.target.chip = "sm_86";
  m.tensorMaps = {
      {"A", {8, 8}, TensorMapSwizzle::None, TensorMapL2Promotion::None}};
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[0]: tensor maps need "
                                "sm_90 or newer (target.chip is \"sm_86\")");
}

TEST(ManifestTest, FmaRepackedParam) {
  // An fma kernel's repacked B: repack_row_stride on the param, written
  // after the offset and read back; refused without config.repack, on
  // another param, below the row length or off 16 bytes.
  KernelManifest m = makeExampleManifest();
  m.problem.n = 77;
  m.params[1].cols = m.params[1].rowStride = 77;
  m.params[1].alignment = 4;
  m.params[2].cols = m.params[2].rowStride = 77;
  m.params[2].alignment = 4;
  m.params[1].repackRowStride = 80;
  std::string error;
  EXPECT_FALSE(validateManifest(m, error));
  EXPECT_NE(error.find("has repack_row_stride 80 but the config does not "
                       "repack"),
            std::string::npos)
      << error;
  m.config.repack = true;
  ASSERT_TRUE(validateManifest(m, error)) << error;
  std::string text = writeManifestJson(m);
  EXPECT_NE(text.find("\"repack_row_stride\": 80, \"alignment\": 4"),
            std::string::npos)
      << text;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed.params[1].repackRowStride, 80);
  EXPECT_EQ(parsed, m);
  EXPECT_EQ(formatConfigShort(parsed.config).find("/rp") != std::string::npos,
            true);
  KernelManifest wrong = m;
  wrong.params[1].repackRowStride = 0;
  wrong.params[0].repackRowStride = 72;
  EXPECT_FALSE(validateManifest(wrong, error));
  EXPECT_NE(error.find("only the rhs param of an fma kernel"),
            std::string::npos)
      << error;
  for (int64_t stride : {76, 78}) {
    wrong = m;
    wrong.params[1].repackRowStride = stride;
    EXPECT_FALSE(validateManifest(wrong, error)) << stride;
    EXPECT_NE(error.find("the copy's rows must hold its 77 columns and start "
                         "on 16 bytes"),
              std::string::npos)
        << error;
  }
}

TEST(ManifestTest, RepackedTensorMaps) {
  // 4095x4093 A and 4093x4097 B in bf16: rows of 8186 and 8194 bytes, which
  // the TMA cannot read in place; the maps view copies with rows of 4096 and
  // 4104 elements, and the params need only element alignment.
  KernelManifest m = makeWgmmaExampleManifest();
  m.problem.m = 4095;
  m.problem.n = 4097;
  m.problem.k = 4093;
  m.params[0].rows = 4095;
  m.params[0].cols = m.params[0].rowStride = 4093;
  m.params[1].rows = 4093;
  m.params[1].cols = m.params[1].rowStride = 4097;
  m.params[2].rows = 4095;
  m.params[2].cols = m.params[2].rowStride = 4097;
  m.params[0].alignment = m.params[1].alignment = m.params[2].alignment = 2;
  m.launch.grid = {544, 1, 1};
  std::string error;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[0] views param \"A\" (lhs) whose rows are "
            "8186 bytes apart (row_stride 4093); the TMA needs a multiple of "
            "16 bytes below 2^40 (or repack_row_stride)");
  m.tensorMaps[0].repackRowStride = 4096;
  m.tensorMaps[1].repackRowStride = 4104;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[0] has repack_row_stride 4096 but the "
            "config does not repack (its 'repack' is false)");
  m.config.repack = true;
  EXPECT_TRUE(validateManifest(m, error)) << error;

  // Written only where not 0 / false, after l2_promotion and after copy;
  // read back the same.
  std::string text = writeManifestJson(m);
  EXPECT_NE(text.find("{\"param\": \"A\", \"box\": [128, 64], \"swizzle\": "
                      "\"128B\", \"l2_promotion\": \"256B\", "
                      "\"repack_row_stride\": 4096}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"copy\": \"tma\", \"repack\": true, "
                      "\"specialize\": "),
            std::string::npos)
      << text;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, m);
  EXPECT_EQ(parsed.tensorMaps[1].repackRowStride, 4104);
  EXPECT_TRUE(parsed.config.repack);
  EXPECT_EQ(writeManifestJson(makeWgmmaExampleManifest()).find("repack"),
            std::string::npos);
  EXPECT_EQ(parseError(replaced(text, "\"repack_row_stride\": 4096",
                                "\"repack_row_stride\": 0")),
            "manifest: field 'tensor_maps[0].repack_row_stride' must be an "
            "integer in [1, 9223372036854775807] (got 0)");
  EXPECT_EQ(parseError(replaced(text, "\"repack_row_stride\": 4096",
                                "\"repack_row_stride\": \"4096\"")),
            "manifest: field 'tensor_maps[0].repack_row_stride' must be an "
            "integer (got \"4096\")");
  EXPECT_EQ(parseError(replaced(text, "\"repack\": true",
                                "\"repack\": 1")),
            "manifest: field 'config.repack' must be true or false (got 1)");
  KernelManifest changed = m;
  changed.tensorMaps[0].repackRowStride = 4104;
  EXPECT_NE(changed, m);
  changed = m;
  changed.config.repack = false;
  EXPECT_NE(changed, m);

  // The copy's rows: exactly the columns padded to 128 bytes (or, as
  // earlier versions wrote them, to 16).
  KernelManifest bad = m;
  for (int64_t stride : {4092, 4100, 4104, 4160}) {
    bad.tensorMaps[0].repackRowStride = stride;
    EXPECT_EQ(validationError(bad),
              "manifest: tensor_maps[0] repacks param \"A\" (lhs) (4093 "
              "columns) into rows of " +
                  std::to_string(stride) +
                  " elements; repack_row_stride must be the columns padded "
                  "to 128 bytes (4096) or to 16 bytes");
  }
  KernelManifest padded = m;
  padded.tensorMaps[1].repackRowStride = 4160; // 4097 columns, 128 bytes
  std::string ok;
  EXPECT_TRUE(validateManifest(padded, ok)) << ok;
  padded.tensorMaps[1].repackRowStride = 4112; // neither
  EXPECT_EQ(validationError(padded),
            "manifest: tensor_maps[1] repacks param \"B\" (rhs) (4097 "
            "columns) into rows of 4112 elements; repack_row_stride must be "
            "the columns padded to 128 bytes (4160) or to 16 bytes");
  // The copy reads whole rows of the param.
  bad = m;
  bad.params[0].rowStride = 4000;
  EXPECT_EQ(validationError(bad),
            "manifest: tensor_maps[0] repacks param \"A\" (lhs) whose "
            "row_stride 4000 is below its 4093 columns; the copy reads whole "
            "rows");
  // A copy too large to allocate (rows x padded bytes past 2^48).
  bad = m;
  bad.problem.m = bad.params[0].rows = bad.params[2].rows = int64_t(1) << 32;
  bad.problem.k = bad.params[0].cols = bad.params[0].rowStride =
      bad.params[1].rows = (int64_t(1) << 20) + 1;
  bad.tensorMaps[0].repackRowStride = (int64_t(1) << 20) + 8;
  bad.launch.grid = {(uint32_t(1) << 25) * 17, 1, 1};
  EXPECT_EQ(validationError(bad),
            "manifest: tensor_maps[0] repacks param \"A\" (lhs) of "
            "4294967296x1048577 into a copy of more than 2^48 bytes");
  // Without the repack the alignment is the TMA's again.
  bad = m;
  bad.params[1].rowStride = 4104;
  bad.tensorMaps[1].repackRowStride = 0;
  EXPECT_EQ(validationError(bad),
            "manifest: tensor_maps[1] views param \"B\" (rhs) with alignment "
            "2; the TMA needs 16-byte aligned base pointers");
}

TEST(ManifestTest, ValidationAcceptsLayouts) {
  KernelManifest m = makeExampleManifest();
  std::string error;
  // Column-major C with padding, transposed A.
  m.params[2].rowStride = 1;
  m.params[2].colStride = 4100;
  m.params[0].rowStride = 1;
  m.params[0].colStride = 4096;
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

} // namespace

/// The example with a fused epilogue: a bias per column and a residual,
/// then ReLU.
static KernelManifest makeEpilogueManifest() {
  KernelManifest manifest = makeExampleManifest();
  const ProblemInfo &p = manifest.problem;
  manifest.params.push_back({"E0", ParamRole::Epilogue, ElementType::F32, 1,
                             p.n, p.n, 1, 4, ParamAccess::Read});
  manifest.params.push_back({"E1", ParamRole::Epilogue, ElementType::F32, p.m,
                             p.n, p.n, 1, 4, ParamAccess::Read});
  manifest.epilogue.operands = {{"E0", EpilogueOperandKind::Col},
                                {"E1", EpilogueOperandKind::Full}};
  manifest.epilogue.steps = {"addf acc p0", "addf s0 p1", "maximumf s1 0"};
  return manifest;
}

TEST(ManifestTest, EpilogueRoundTripsAndValidates) {
  KernelManifest original = makeEpilogueManifest();
  std::string error;
  ASSERT_TRUE(validateManifest(original, error)) << error;
  std::string text = writeManifestJson(original);
  EXPECT_NE(text.find("\"epilogue\": {\"operands\": [{\"param\": \"E0\", "
                      "\"kind\": \"col\"}, {\"param\": \"E1\", \"kind\": "
                      "\"full\"}], \"steps\": [\"addf acc p0\", \"addf s0 "
                      "p1\", \"maximumf s1 0\"]}"),
            std::string::npos)
      << text;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, original);
  // Without an epilogue the field is not written.
  EXPECT_EQ(writeManifestJson(makeExampleManifest()).find("epilogue"),
            std::string::npos);
}

TEST(ManifestTest, EpilogueIsChecked) {
  KernelManifest manifest = makeEpilogueManifest();
  manifest.params[3].cols = 1;
  EXPECT_NE(validationError(manifest).find("param \"E0\" (epilogue) is"),
            std::string::npos);
  manifest = makeEpilogueManifest();
  manifest.epilogue.operands.pop_back();
  EXPECT_NE(validationError(manifest).find("one per epilogue operand (1)"),
            std::string::npos);
  manifest = makeEpilogueManifest();
  std::swap(manifest.epilogue.operands[0].param,
            manifest.epilogue.operands[1].param);
  EXPECT_NE(validationError(manifest).find("epilogue operand 0 names param"),
            std::string::npos);
  // Steps that do not parse are refused by the reader.
  manifest = makeEpilogueManifest();
  manifest.epilogue.steps = {"addf acc p2"};
  KernelManifest parsed;
  std::string error;
  EXPECT_FALSE(parseManifestJson(writeManifestJson(manifest), parsed, error));
  EXPECT_NE(error.find("operand p2 of 2"), std::string::npos) << error;
  manifest.epilogue.steps = {"expf acc"};
  EXPECT_FALSE(parseManifestJson(writeManifestJson(manifest), parsed, error));
  EXPECT_NE(error.find("unknown op 'expf'"), std::string::npos) << error;
}

TEST(ManifestTest, EpilogueStepsEvaluate) {
  std::vector<EpilogueStep> steps;
  std::string error;
  ASSERT_TRUE(parseEpilogueSteps({"mulf acc 1.5", "mulf -0.25 p0",
                                  "addf s0 s1", "maximumf s2 0"},
                                 1, steps, error))
      << error;
  double operand = 2.0, magnitude = 0;
  EXPECT_EQ(evalEpilogue(steps, 3.0, 1.0, &operand, magnitude), 4.0);
  // 1.5 * (1) + |s0| 4.5, + |s1| 0.5 -> 6.5, + |s2| 4 -> 10.5, max: + 4.
  EXPECT_DOUBLE_EQ(magnitude, 1.5 + 4.5 + 0.5 + 4.0 + 4.0);
  EXPECT_EQ(evalEpilogue(steps, -3.0, 1.0, &operand, magnitude), 0.0);
  ASSERT_FALSE(parseEpilogueSteps({"addf s0 acc"}, 0, steps, error));
  EXPECT_NE(error.find("not an earlier step"), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// Batched kernels
//===----------------------------------------------------------------------===//

/// The example kernel as a batch of 8: grid y 8, each param's matrices one
/// after another.
static KernelManifest makeBatchedManifest() {
  KernelManifest manifest = makeExampleManifest();
  manifest.problem.batch = 8;
  manifest.launch.grid = {1024, 8, 1};
  for (ParamInfo &param : manifest.params)
    param.batchStride = param.rows * param.cols;
  return manifest;
}

TEST(ManifestTest, BatchedRoundTrip) {
  KernelManifest original = makeBatchedManifest();
  std::string error;
  ASSERT_TRUE(validateManifest(original, error)) << error;
  std::string text = writeManifestJson(original);
  // The writer's exact bytes: "batch" after "k", "batch_stride" after
  // "col_stride".
  EXPECT_NE(
      text.find("\n  \"problem\": {\"m\": 4096, \"n\": 4096, \"k\": 4096, "
                "\"batch\": 8, \"element_type\": \"f32\", "
                "\"accumulator_type\": \"f32\", \"c_init\": "
                "\"accumulate\", \"c_fill_value\": 0.0},\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("\n    {\"name\": \"C\", \"role\": \"result\", "
                      "\"element_type\": \"f32\", \"rows\": 4096, \"cols\": "
                      "4096, \"row_stride\": 4096, \"col_stride\": 1, "
                      "\"batch_stride\": 16777216, \"alignment\": 16, "
                      "\"access\": \"readwrite\"}\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"grid\": [1024, 8, 1]"), std::string::npos) << text;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, original);
  EXPECT_EQ(parsed.problem.batch, 8);
  EXPECT_EQ(parsed.params[1].batchStride, 4096 * 4096);
  EXPECT_TRUE(validateManifest(parsed, error)) << error;
  EXPECT_EQ(writeManifestJson(parsed), text);
  // Equality looks at both fields.
  KernelManifest other = original;
  other.problem.batch = 4;
  EXPECT_NE(other, original);
  other = original;
  other.params[0].batchStride += 1;
  EXPECT_NE(other, original);
}

TEST(ManifestTest, UnbatchedManifestsHaveNoBatchFields) {
  // Neither field is written for a plain matmul, and a manifest without
  // them (every manifest before batched kernels) reads as batch 1.
  std::string text = exampleJson();
  EXPECT_EQ(text.find("batch"), std::string::npos) << text;
  KernelManifest parsed;
  std::string error;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed.problem.batch, 1);
  for (const ParamInfo &param : parsed.params)
    EXPECT_EQ(param.batchStride, 0);
  // "batch": 1 may be written out; it means the same.
  ASSERT_TRUE(parseManifestJson(
      replaced(text, "\"k\": 4096, ", "\"k\": 4096, \"batch\": 1, "), parsed,
      error))
      << error;
  EXPECT_EQ(parsed, makeExampleManifest());
  EXPECT_TRUE(validateManifest(parsed, error)) << error;
}

TEST(ManifestTest, BatchFieldsAreParsedStrictly) {
  std::string text = writeManifestJson(makeBatchedManifest());
  EXPECT_EQ(parseError(replaced(text, "\"batch\": 8", "\"batch\": 0")),
            "manifest: field 'problem.batch' must be an integer in [1, 65535] "
            "(got 0)");
  EXPECT_EQ(parseError(replaced(text, "\"batch\": 8", "\"batch\": 65536")),
            "manifest: field 'problem.batch' must be an integer in [1, 65535] "
            "(got 65536)");
  EXPECT_EQ(parseError(replaced(text, "\"batch\": 8", "\"batch\": \"8\"")),
            "manifest: field 'problem.batch' must be an integer (got \"8\")");
  EXPECT_EQ(parseError(replaced(text, "\"batch\": 8", "\"batch\": 8.5")),
            "manifest: field 'problem.batch' must be an integer (got 8.5)");
  // A's line up to its batch_stride (B's has the same strides).
  std::string aLine = "{\"name\": \"A\", \"role\": \"lhs\", \"element_type\": "
                      "\"f32\", \"rows\": 4096, \"cols\": 4096, "
                      "\"row_stride\": 4096, \"col_stride\": 1, "
                      "\"batch_stride\": 16777216";
  EXPECT_EQ(parseError(
                replaced(text, aLine, aLine.substr(0, aLine.size() - 8) + "0")),
            "manifest: field 'params[0].batch_stride' must be an integer in "
            "[1, 9223372036854775807] (got 0)");
  EXPECT_EQ(parseError(replaced(text, aLine,
                                aLine.substr(0, aLine.size() - 8) + "-4")),
            "manifest: field 'params[0].batch_stride' must be an integer in "
            "[1, 9223372036854775807] (got -4)");
}

TEST(ManifestTest, BatchIsChecked) {
  const KernelManifest base = makeBatchedManifest();
  KernelManifest m = base;
  m.problem.batch = 0;
  EXPECT_EQ(validationError(m),
            "manifest: field 'problem.batch' must be at least 1 (got 0)");
  m = base;
  m.problem.batch = 70000;
  m.launch.grid = {1024, 1, 1};
  EXPECT_EQ(validationError(m),
            "manifest: problem.batch 70000 is over 65535, the launch grid's y "
            "limit (a batched kernel runs its batch on grid y)");
  m = base;
  m.problem.batch = 65535;
  m.launch.grid = {1, 65535, 1};
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;

  // The batch is the grid's y dimension.
  m = base;
  m.launch.grid = {1024, 1, 1};
  EXPECT_EQ(validationError(m),
            "manifest: launch grid 1024x1x1 has 1 blocks along y but "
            "problem.batch is 8: a batched kernel (problem.batch 8) runs one "
            "matrix per grid y index");
  m = base;
  m.launch.grid = {128, 64, 1};
  EXPECT_EQ(validationError(m),
            "manifest: launch grid 128x64x1 has 64 blocks along y but "
            "problem.batch is 8: a batched kernel (problem.batch 8) runs one "
            "matrix per grid y index");
  // A persistent kernel's blocks walk the tiles of every matrix along x:
  // its grid y is 1.
  m = base;
  m.config.persistent = true;
  m.launch.grid = {132, 1, 1};
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.launch.grid = {132, 8, 1};
  EXPECT_EQ(validationError(m),
            "manifest: launch grid 132x8x1 of a persistent batched kernel "
            "(problem.batch 8) has 8 blocks along y: its blocks walk the "
            "tiles of every matrix along x (1 along y)");
  // An unbatched kernel's grid y is its own (the fixtures use 2-d grids).
  m = makeExampleManifest();
  m.launch.grid = {32, 32, 1};
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

TEST(ManifestTest, BatchStridesAreChecked) {
  const KernelManifest base = makeBatchedManifest();
  KernelManifest m = base;
  // Every one of A, B and C needs one.
  for (size_t i = 0; i < 3; ++i) {
    m = base;
    m.params[i].batchStride = 0;
    const char *names[] = {"\"A\" (lhs)", "\"B\" (rhs)", "\"C\" (result)"};
    EXPECT_EQ(validationError(m),
              std::string("manifest: param ") + names[i] +
                  " has no batch_stride, which the lhs, rhs and result "
                  "params of a batched kernel (problem.batch 8) need");
  }
  m = base;
  m.params[1].batchStride = -5;
  EXPECT_EQ(validationError(m), "manifest: param \"B\" (rhs) batch_stride "
                                "must be positive (got -5)");
  // An unbatched kernel's params have none.
  m = makeExampleManifest();
  m.params[2].batchStride = 4096 * 4096;
  EXPECT_EQ(validationError(m),
            "manifest: param \"C\" (result) has batch_stride 16777216 but "
            "problem.batch is 1: only the params of a batched kernel have "
            "one");
  // C's matrices must not overlap: at least (rows-1)*row_stride +
  // (cols-1)*col_stride + 1 apart.
  m = base;
  m.params[2].batchStride = 4096 * 4096 - 1;
  EXPECT_EQ(validationError(m),
            "manifest: param \"C\" (result) batches overlap: batch_stride "
            "16777215 is below the 16777216 elements one matrix spans "
            "(row_stride 4096, col_stride 1)");
  m.params[2].batchStride = 4096 * 4096 + 64; // padding between is fine
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // Inputs may overlap (a shared operand read by every batch, or one
  // shifted by a row).
  m = base;
  m.params[0].batchStride = 4;
  m.params[1].batchStride = 4096;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // Each matrix keeps the base's alignment (16 bytes: 4 f32 elements).
  m.params[0].batchStride = 6;
  EXPECT_EQ(validationError(m),
            "manifest: param \"A\" (lhs) batch_stride 6 (24 bytes) is not a "
            "multiple of its alignment 16: matrix 1 would start misaligned");
  // Column-major C: its span is the same.
  m = base;
  m.params[2].rowStride = 1;
  m.params[2].colStride = 4100;
  m.params[2].batchStride = 4095 * 4100 + 4096;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.params[2].batchStride -= 1;
  EXPECT_NE(validationError(m).find("batches overlap"), std::string::npos);
  // A layout that overflows with the batch is refused.
  m = base;
  m.params[0].batchStride = int64_t(1) << 61;
  EXPECT_EQ(validationError(m), "manifest: param \"A\" (lhs) layout needs "
                                "more bytes than fit in 64 bits");
}

TEST(ManifestTest, BatchedKernelsTakeEpilogues) {
  // A batch of 2: A, B and C with their matrices one after another, the
  // bias (E0) shared by both matrices, the residual (E1) one per matrix.
  KernelManifest m = makeEpilogueManifest();
  m.problem.batch = 2;
  m.launch.grid[1] = 2;
  for (ParamInfo &param : m.params)
    param.batchStride = param.rows * param.cols;
  m.params[3].batchStride = 0;
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  std::string text = writeManifestJson(m);
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, m);
  // Both per matrix, and both shared.
  m.params[3].batchStride = m.params[3].cols;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.params[3].batchStride = m.params[4].batchStride = 0;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // The buffer a per-matrix operand needs holds every matrix.
  uint64_t elements = 0;
  m.params[4].batchStride = m.params[4].rows * m.params[4].cols;
  ASSERT_TRUE(getRequiredElements(m.params[4], 2, elements));
  EXPECT_EQ(elements, uint64_t(2 * m.problem.m * m.problem.n));
  // A, B and C still need theirs; a negative one is refused; an unbatched
  // kernel's epilogue params have none.
  m.params[2].batchStride = 0;
  EXPECT_NE(validationError(m).find("param \"C\" (result) has no "
                                    "batch_stride"),
            std::string::npos);
  m = makeEpilogueManifest();
  m.problem.batch = 2;
  m.launch.grid[1] = 2;
  for (ParamInfo &param : m.params)
    param.batchStride = param.rows * param.cols;
  // (-1 is kDynamic, which an epilogue param may not have: below.)
  m.params[4].batchStride = -2;
  EXPECT_EQ(validationError(m), "manifest: param \"E1\" (epilogue) "
                                "batch_stride must be positive (got -2)");
  m = makeEpilogueManifest();
  m.params[3].batchStride = m.params[3].cols;
  EXPECT_NE(validationError(m).find("param \"E0\" (epilogue) has "
                                    "batch_stride"),
            std::string::npos);
  // An epilogue without operands (ReLU) on a batch.
  m = makeBatchedManifest();
  m.epilogue.steps = {"maximumf acc 0"};
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

/// The wgmma example as a batch of 4: grid y 4, each param's matrices one
/// after another, its tensor maps batched (3-d).
static KernelManifest makeBatchedWgmmaManifest() {
  KernelManifest manifest = makeWgmmaExampleManifest();
  manifest.problem.batch = 4;
  manifest.launch.grid = {512, 4, 1};
  for (ParamInfo &param : manifest.params)
    param.batchStride = param.rows * param.cols;
  for (TensorMapInfo &map : manifest.tensorMaps)
    map.batched = true;
  return manifest;
}

TEST(ManifestTest, BatchedTensorMapsRoundTrip) {
  KernelManifest original = makeBatchedWgmmaManifest();
  std::string error;
  ASSERT_TRUE(validateManifest(original, error)) << error;
  // "batched" last in the map's object, only where true.
  std::string text = writeManifestJson(original);
  EXPECT_NE(text.find("{\"param\": \"A\", \"box\": [128, 64], \"swizzle\": "
                      "\"128B\", \"l2_promotion\": \"256B\", \"batched\": "
                      "true},\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(countOccurrences(text, "\"batched\""), 2u) << text;
  EXPECT_EQ(writeManifestJson(makeWgmmaExampleManifest()).find("batched"),
            std::string::npos);
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, original);
  EXPECT_TRUE(parsed.tensorMaps[0].batched);
  EXPECT_TRUE(parsed.tensorMaps[1].batched);
  EXPECT_EQ(writeManifestJson(parsed), text);
  // Equality looks at it.
  KernelManifest other = original;
  other.tensorMaps[1].batched = false;
  EXPECT_NE(other, original);
  // After a repack_row_stride.
  other = original;
  other.config.repack = true;
  other.tensorMaps[0].repackRowStride = 4096;
  EXPECT_NE(writeManifestJson(other).find("\"repack_row_stride\": 4096, "
                                          "\"batched\": true}"),
            std::string::npos);
  // Absent means false, and false may be written out; anything but a bool
  // is refused.
  std::string first = "\"l2_promotion\": \"256B\", \"batched\": true}";
  std::string text2 = replaced(text, first + ",\n",
                               "\"l2_promotion\": \"256B\", \"batched\": "
                               "false},\n");
  ASSERT_TRUE(parseManifestJson(text2, parsed, error)) << error;
  EXPECT_FALSE(parsed.tensorMaps[0].batched);
  EXPECT_TRUE(parsed.tensorMaps[1].batched);
  EXPECT_EQ(parseError(replaced(text, first + ",\n",
                                "\"l2_promotion\": \"256B\", \"batched\": "
                                "1},\n")),
            "manifest: field 'tensor_maps[0].batched' must be true or false "
            "(got 1)");
  EXPECT_EQ(parseError(replaced(text, first + ",\n",
                                "\"l2_promotion\": \"256B\", \"batched\": "
                                "\"true\"},\n")),
            "manifest: field 'tensor_maps[0].batched' must be true or false "
            "(got \"true\")");
}

TEST(ManifestTest, BatchedKernelsTakeBatchedTensorMaps) {
  // A batched kernel's maps are batched: a 2-d map over the batch would
  // let a box read across into the next matrix.
  KernelManifest m = makeBatchedWgmmaManifest();
  m.tensorMaps[1].batched = false;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[1] views param \"B\" (rhs) of a batched "
            "kernel (problem.batch 4) but is not batched: a batched kernel's "
            "tensor maps must be batched (a 2-d map over several matrices "
            "would let a box read the next matrix)");
  // A linalg.batch_matmul of one matrix has 3-d maps over a batch of one
  // (its params have no batch_stride, the map never steps it).
  m = makeWgmmaExampleManifest();
  m.tensorMaps[0].batched = true;
  {
    std::string error;
    EXPECT_TRUE(validateManifest(m, error)) << error;
  }
  // A column-major B: its stored matrices are batch_stride apart too.
  m = makeBatchedWgmmaManifest();
  m.params[1].rowStride = 1;
  m.params[1].colStride = 4096;
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

TEST(ManifestTest, BatchedTensorMapStridesAreChecked) {
  const KernelManifest base = makeBatchedWgmmaManifest();
  std::string error;
  // Padding between matrices is fine where it keeps 16 bytes.
  KernelManifest m = base;
  m.params[0].batchStride = 4096 * 4096 + 8;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // The batch stride is the map's outer stride: a multiple of 16 bytes (the
  // param's alignment 8 allows 8 bytes; the TMA does not).
  m.params[0].batchStride = 4096 * 4096 + 4;
  m.params[0].alignment = 8;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[0] views param \"A\" (lhs) whose matrices "
            "are 33554440 bytes apart (batch_stride 16777220); the TMA needs "
            "a multiple of 16 bytes below 2^40 (or repack_row_stride)");
  // And below 2^40 bytes.
  m = base;
  m.params[1].batchStride = int64_t(1) << 39;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[1] views param \"B\" (rhs) whose matrices "
            "are 1099511627776 bytes apart (batch_stride 549755813888); the "
            "TMA needs a multiple of 16 bytes below 2^40 (or "
            "repack_row_stride)");
  m.params[1].batchStride = (int64_t(1) << 39) - 8;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // Overlapping inputs (a shared B, one row apart) are mapped as they are.
  m = base;
  m.params[1].batchStride = 4096;
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

TEST(ManifestTest, BatchedRepackedTensorMaps) {
  // The repacked 4095x4093 A and 4093x4097 B of RepackedTensorMaps as a
  // batch of 4: the copy reads the matrices wherever they are (A's
  // batch_stride, 4095*4093 elements, is 33521670 bytes, no multiple of 16)
  // and stacks them.
  KernelManifest m = makeWgmmaExampleManifest();
  m.problem.m = 4095;
  m.problem.n = 4097;
  m.problem.k = 4093;
  m.problem.batch = 4;
  m.params[0].rows = 4095;
  m.params[0].cols = m.params[0].rowStride = 4093;
  m.params[1].rows = 4093;
  m.params[1].cols = m.params[1].rowStride = 4097;
  m.params[2].rows = 4095;
  m.params[2].cols = m.params[2].rowStride = 4097;
  for (ParamInfo &param : m.params) {
    param.alignment = 2;
    param.batchStride = param.rows * param.rowStride;
  }
  m.launch.grid = {544, 4, 1};
  m.tensorMaps[0].repackRowStride = 4096;
  m.tensorMaps[1].repackRowStride = 4104;
  m.tensorMaps[0].batched = m.tensorMaps[1].batched = true;
  m.config.repack = true;
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(writeManifestJson(m), parsed, error)) << error;
  EXPECT_EQ(parsed, m);

  // The copy's size counts every matrix: one of 2^32 rows of 8192 bytes
  // (2^45) fits in 2^48 bytes, 16 of them do not.
  KernelManifest big = m;
  big.problem.m = big.params[0].rows = big.params[2].rows = int64_t(1) << 32;
  for (ParamInfo &param : big.params)
    param.batchStride = param.rows * param.rowStride;
  big.problem.batch = 16;
  big.launch.grid = {(uint32_t(1) << 25) * 17, 16, 1};
  EXPECT_EQ(validationError(big),
            "manifest: tensor_maps[0] repacks param \"A\" (lhs) of 16 x "
            "4294967296x4093 into a copy of more than 2^48 bytes");
  // With 2 the copy fits, but its matrices, 2^45 bytes apart, are over the
  // TMA's stride limit.
  big.problem.batch = 2;
  big.launch.grid[1] = 2;
  EXPECT_EQ(validationError(big),
            "manifest: tensor_maps[0] repacks param \"A\" (lhs) of "
            "4294967296x4093 into matrices of 35184372088832 bytes; the TMA "
            "needs a batch stride below 2^40 bytes");
  // Unbatched, the one matrix is the whole copy.
  big.problem.batch = 1;
  big.launch.grid[1] = 1;
  for (ParamInfo &param : big.params)
    param.batchStride = 0;
  big.tensorMaps[0].batched = big.tensorMaps[1].batched = false;
  EXPECT_TRUE(validateManifest(big, error)) << error;
}

TEST(ManifestTest, OffsetsRoundTripAndCount) {
  // A strided param (a subview's memref): its matrix starts `offset`
  // elements past the pointer the kernel takes.
  KernelManifest original = makeExampleManifest();
  original.params[0].rowStride = 4100;
  original.params[0].offset = 8200;
  std::string error;
  ASSERT_TRUE(validateManifest(original, error)) << error;
  std::string text = writeManifestJson(original);
  // Written after the strides (and batch_stride), only where not 0.
  EXPECT_NE(text.find("\"row_stride\": 4100, \"col_stride\": 1, "
                      "\"offset\": 8200, \"alignment\": 16"),
            std::string::npos)
      << text;
  EXPECT_EQ(countOccurrences(text, "\"offset\""), 1u) << text;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, original);
  EXPECT_EQ(parsed.params[0].offset, 8200);
  EXPECT_EQ(writeManifestJson(parsed), text);
  KernelManifest other = original;
  other.params[0].offset = 8204;
  EXPECT_NE(other, original);
  // A batch's matrices are apart by what one spans from its first element:
  // the offset does not count.
  KernelManifest batched = makeBatchedManifest();
  batched.params[2].offset = 100;
  EXPECT_TRUE(validateManifest(batched, error)) << error;
  batched.params[2].batchStride -= 1;
  EXPECT_EQ(validationError(batched),
            "manifest: param \"C\" (result) batches overlap: batch_stride "
            "16777215 is below the 16777216 elements one matrix spans "
            "(row_stride 4096, col_stride 1)");
  // The bytes a buffer needs count the offset.
  uint64_t elements = 0;
  ASSERT_TRUE(getRequiredElements(original.params[0], 1, elements));
  EXPECT_EQ(elements, 8200u + 4095u * 4100u + 4096u);
  ParamInfo negative = original.params[0];
  negative.offset = -1;
  EXPECT_FALSE(getRequiredElements(negative, 1, elements));
  // Bytes past 2^64 are refused.
  negative.offset = INT64_MAX;
  uint64_t bytes = 0;
  EXPECT_FALSE(getRequiredBytes(negative, 1, bytes));
  // "offset" is at least 1 where present (0 is written as no field).
  std::string zero = text;
  zero.replace(zero.find("\"offset\": 8200"), 14, "\"offset\": 0");
  EXPECT_FALSE(parseManifestJson(zero, parsed, error));
  EXPECT_NE(error.find("field 'params[0].offset' must be an integer in [1, "),
            std::string::npos)
      << error;
}

TEST(ManifestTest, TensorMapsNeedOffsetsOn16Bytes) {
  // The TMA reads a strided param in place from its first element: the
  // offset must be a multiple of 16 bytes, unless the map repacks it.
  KernelManifest m = makeWgmmaExampleManifest();
  std::string error;
  ASSERT_TRUE(validateManifest(m, error)) << error;
  m.params[1].offset = 4; // 8 bytes of bf16
  // (B's alignment, 16, is the first element's too: the param's own rule
  // speaks first.)
  EXPECT_EQ(validationError(m),
            "manifest: param \"B\" (rhs) offset 4 (8 bytes) is not a "
            "multiple of its alignment 16: its first element would be "
            "misaligned");
  m.params[1].alignment = 8;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[1] views param \"B\" (rhs) whose first "
            "element is at offset 4 (8 bytes); the TMA needs a multiple of 16 "
            "bytes (or repack_row_stride)");
  m.params[1].alignment = 16;
  m.params[1].offset = 8; // 16 bytes
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

TEST(ManifestTest, OffsetsKeepTheAlignment) {
  // The caller's pointer has the param's alignment, and the kernel's
  // vector accesses assume it of the first element: the offset's bytes
  // must be a multiple of it.
  KernelManifest m = makeExampleManifest(); // f32, alignment 16
  std::string error;
  m.params[0].rowStride = 4100;
  m.params[0].offset = 4; // 16 bytes
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.params[0].offset = 2; // 8 bytes
  EXPECT_EQ(validationError(m),
            "manifest: param \"A\" (lhs) offset 2 (8 bytes) is not a "
            "multiple of its alignment 16: its first element would be "
            "misaligned");
  m.params[0].alignment = 8;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.params[0].offset = 1; // 4 bytes: element alignment only
  m.params[0].alignment = 4;
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

TEST(ManifestTest, DynamicLayoutsRoundTrip) {
  // A dynamic offset or stride is "dynamic" in the JSON and kDynamic in
  // the struct; the kernel takes its value at launch.
  KernelManifest m = makeWgmmaExampleManifest();
  m.params[0].offset = kDynamic;
  m.params[0].rowStride = kDynamic;
  m.params[2].rowStride = kDynamic;
  std::string error;
  ASSERT_TRUE(validateManifest(m, error)) << error;
  EXPECT_TRUE(hasDynamicLayout(m));
  EXPECT_TRUE(hasDynamicLayout(m.params[0]));
  EXPECT_FALSE(hasDynamicLayout(m.params[1]));
  std::string text = writeManifestJson(m);
  EXPECT_NE(text.find("\"rows\": 4096, \"cols\": 4096, \"row_stride\": "
                      "\"dynamic\", \"col_stride\": 1, \"offset\": "
                      "\"dynamic\", \"alignment\": 16"),
            std::string::npos)
      << text;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, m);
  EXPECT_EQ(writeManifestJson(parsed), text);
  // No other string is a value.
  std::string other = text;
  other.replace(other.find("\"dynamic\""), 9, "\"dynamik\"");
  EXPECT_FALSE(parseManifestJson(other, parsed, error));
  EXPECT_EQ(error, "manifest: field 'params[0].row_stride' must be an "
                   "integer in [0, 9223372036854775807] or \"dynamic\" (got "
                   "\"dynamik\")");
  // What a buffer needs is the launch's to say.
  uint64_t bytes = 0;
  EXPECT_FALSE(getRequiredBytes(m.params[0], 1, bytes));
}

TEST(ManifestTest, DynamicLayoutRules) {
  KernelManifest m = makeEpilogueManifest();
  std::string error;
  ASSERT_TRUE(validateManifest(m, error)) << error;
  // On an epilogue param too (a strided operand of the fused epilogue):
  // its values come after C's, in param order.
  KernelManifest e = m;
  e.params[3].offset = kDynamic;
  e.params[4].offset = kDynamic;
  e.params[4].rowStride = kDynamic;
  e.params[2].offset = kDynamic;
  ASSERT_TRUE(validateManifest(e, error)) << error;
  {
    std::vector<ParamLayout> layouts;
    for (const ParamInfo &param : e.params)
      layouts.push_back(getParamLayout(param));
    layouts[2].offset = 12;
    layouts[3].offset = 5;
    layouts[4].offset = 7;
    layouts[4].rowStride = e.params[4].cols + 3;
    KernelManifest out;
    ASSERT_TRUE(resolveLayouts(e, layouts.data(), layouts.size(), out, error))
        << error;
    EXPECT_EQ(out.params[3].offset, 5);
    EXPECT_EQ(out.params[4].rowStride, e.params[4].cols + 3);
    EXPECT_EQ(getDynamicValues(e, out),
              (std::vector<int64_t>{12, 5, 7, e.params[4].cols + 3}));
    // Its rows may not overlap less than the static rules allow, and its
    // values must keep its alignment (4 bytes: any).
    layouts[4].rowStride = 0;
    EXPECT_FALSE(resolveLayouts(e, layouts.data(), layouts.size(), out, error));
    EXPECT_EQ(error, "argument 4 (E1): row_stride 0 is below 1");
  }
  // The stride of the stored rows only: the other one is 1.
  KernelManifest c = makeExampleManifest();
  c.params[1].colStride = kDynamic;
  EXPECT_EQ(validationError(c),
            "manifest: param \"B\" (rhs) has a dynamic col_stride but its "
            "row_stride is not 1: the kernels read rows (or columns) of "
            "contiguous elements");
  c = makeExampleManifest();
  c.params[1].rowStride = kDynamic;
  c.params[1].colStride = 2;
  EXPECT_EQ(validationError(c),
            "manifest: param \"B\" (rhs) has a dynamic row_stride but its "
            "col_stride is not 1: the kernels read rows (or columns) of "
            "contiguous elements");
  // A column-major param's stored rows are its columns.
  c = makeExampleManifest();
  c.params[1].rowStride = 1;
  c.params[1].colStride = kDynamic;
  EXPECT_TRUE(validateManifest(c, error)) << error;
  // A batch stride only in a batched kernel.
  c = makeExampleManifest();
  c.params[0].batchStride = kDynamic;
  EXPECT_EQ(validationError(c),
            "manifest: param \"A\" (lhs) has a dynamic batch_stride but "
            "problem.batch is 1: only the params of a batched kernel have "
            "one");
  KernelManifest b = makeBatchedManifest();
  b.params[2].batchStride = kDynamic;
  b.params[2].offset = kDynamic;
  EXPECT_TRUE(validateManifest(b, error)) << error;
  // The rest is checked as for the densest layout: a static offset still
  // keeps the alignment.
  c = makeExampleManifest();
  c.params[0].rowStride = kDynamic;
  c.params[0].offset = 2;
  EXPECT_EQ(validationError(c),
            "manifest: param \"A\" (lhs) offset 2 (8 bytes) is not a "
            "multiple of its alignment 16: its first element would be "
            "misaligned");
}

TEST(ManifestTest, ResolveLayouts) {
  KernelManifest m = makeWgmmaExampleManifest(); // bf16, maps on A and B
  m.params[0].offset = kDynamic;
  m.params[0].rowStride = kDynamic;
  m.params[2].rowStride = kDynamic;
  m.params[2].offset = kDynamic;
  std::string error;
  ASSERT_TRUE(validateManifest(m, error)) << error;
  std::vector<ParamLayout> layouts;
  for (const ParamInfo &param : m.params)
    layouts.push_back(getParamLayout(param));
  EXPECT_EQ(layouts[0].offset, kDynamic);
  EXPECT_EQ(layouts[1].rowStride, 4096);
  layouts[0].offset = 24;      // 48 bytes
  layouts[0].rowStride = 4160; // 8320 bytes
  layouts[2].offset = 8;       // C (bf16, alignment 16): 16 bytes
  layouts[2].rowStride = 4104; // 8208 bytes
  auto resolve = [&](std::vector<ParamLayout> given) {
    KernelManifest out;
    std::string why;
    if (resolveLayouts(m, given.data(), given.size(), out, why))
      return std::string();
    return why;
  };
  KernelManifest out;
  ASSERT_TRUE(resolveLayouts(m, layouts.data(), layouts.size(), out, error))
      << error;
  EXPECT_EQ(out.params[0].offset, 24);
  EXPECT_EQ(out.params[0].rowStride, 4160);
  EXPECT_EQ(out.params[2].rowStride, 4104);
  EXPECT_FALSE(hasDynamicLayout(out));
  // The kernel's i64 parameters: params in order, each one's offset, batch
  // stride, then stored rows' stride.
  EXPECT_EQ(getDynamicValues(m, out), (std::vector<int64_t>{24, 4160, 8, 4104}));
  // One layout per param.
  std::vector<ParamLayout> two(layouts.begin(), layouts.begin() + 2);
  EXPECT_EQ(resolve(two), "kernel matmul_bf16_0 takes 3 layouts, got 2");
  // Static fields must be the manifest's.
  std::vector<ParamLayout> bad = layouts;
  bad[1].rowStride = 4104;
  EXPECT_EQ(resolve(bad), "argument 1 (B): row_stride 4104 differs from the "
                          "kernel's 4096 (static in its manifest)");
  bad = layouts;
  bad[0].colStride = 2;
  EXPECT_EQ(resolve(bad), "argument 0 (A): col_stride 2 differs from the "
                          "kernel's 1 (static in its manifest)");
  // Dynamic ones in range and on the param's alignment.
  bad = layouts;
  bad[0].rowStride = 0;
  EXPECT_EQ(resolve(bad), "argument 0 (A): row_stride 0 is below 1");
  bad = layouts;
  bad[0].offset = -8;
  EXPECT_EQ(resolve(bad), "argument 0 (A): offset -8 is below 0");
  bad = layouts;
  bad[0].rowStride = 4100; // 8200 bytes
  EXPECT_EQ(resolve(bad), "argument 0 (A): row_stride 4100 (8200 bytes) is "
                          "not a multiple of the 16 bytes the kernel assumes "
                          "of its dynamic offset and strides");
  // Then the manifest's own rules, with the launch's values: C's rows may
  // not overlap.
  bad = layouts;
  bad[2].rowStride = 4000;
  EXPECT_EQ(resolve(bad),
            "with the launch's layouts, manifest: param \"C\" (result) layout "
            "maps two elements to one address (row_stride 4000, col_stride "
            "1)");
  // A kernel without dynamic fields resolves to itself.
  KernelManifest plain = makeWgmmaExampleManifest();
  std::vector<ParamLayout> own;
  for (const ParamInfo &param : plain.params)
    own.push_back(getParamLayout(param));
  ASSERT_TRUE(resolveLayouts(plain, own.data(), own.size(), out, error))
      << error;
  EXPECT_EQ(out, plain);
  EXPECT_TRUE(getDynamicValues(plain, out).empty());
}

//===----------------------------------------------------------------------===//
// TMA stores of C (config.store "tma")
//===----------------------------------------------------------------------===//

namespace {
/// The wgmma example storing its bf16 C through the TMA: a third map, of C,
/// in 64x64 boxes (128 bytes a box row) with the 128B swizzle.
KernelManifest makeTmaStoreManifest() {
  KernelManifest m = makeWgmmaExampleManifest();
  m.config.store = StoreKind::Tma;
  m.tensorMaps.push_back(
      {"C", {64, 64}, TensorMapSwizzle::B128, TensorMapL2Promotion::None});
  return m;
}
} // namespace

TEST(ManifestTest, StoreKindNames) {
  EXPECT_EQ(stringifyStoreKind(StoreKind::Registers), "registers");
  EXPECT_EQ(stringifyStoreKind(StoreKind::Tma), "tma");
  EXPECT_EQ(symbolizeStoreKind("registers"), StoreKind::Registers);
  EXPECT_EQ(symbolizeStoreKind("tma"), StoreKind::Tma);
  EXPECT_EQ(symbolizeStoreKind("smem"), std::nullopt);
  EXPECT_EQ(ConfigInfo().store, StoreKind::Registers);
}

TEST(ManifestTest, TmaStoreRoundTrips) {
  KernelManifest original = makeTmaStoreManifest();
  std::string error;
  ASSERT_TRUE(validateManifest(original, error)) << error;
  std::string text = writeManifestJson(original);
  // "store" right after "persistent", only for a TMA store; C's map after
  // A's and B's, like theirs.
  EXPECT_NE(text.find("\"persistent\": false, \"store\": \"tma\", \"text\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n    {\"param\": \"C\", \"box\": [64, 64], "
                      "\"swizzle\": \"128B\", \"l2_promotion\": \"none\"}\n"
                      "  ],\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(countOccurrences(text, "\"store\""), 1u) << text;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(text, parsed, error)) << error;
  EXPECT_EQ(parsed, original);
  EXPECT_EQ(parsed.config.store, StoreKind::Tma);
  EXPECT_EQ(writeManifestJson(parsed), text);
  // Equality looks at it.
  KernelManifest other = original;
  other.config.store = StoreKind::Registers;
  EXPECT_NE(other, original);
  // Absent means "registers", which is never written (the examples of
  // docs/artifact.md and earlier artifacts have none) but may be.
  std::string plain = writeManifestJson(makeWgmmaExampleManifest());
  EXPECT_EQ(plain.find("\"store\""), std::string::npos) << plain;
  ASSERT_TRUE(parseManifestJson(plain, parsed, error)) << error;
  EXPECT_EQ(parsed.config.store, StoreKind::Registers);
  std::string registers =
      replaced(plain, "\"persistent\": false, ",
               "\"persistent\": false, \"store\": \"registers\", ");
  ASSERT_TRUE(parseManifestJson(registers, parsed, error)) << error;
  EXPECT_EQ(parsed, makeWgmmaExampleManifest());
  // Anything else is refused, naming the field and the choices.
  const std::string written = "\"store\": \"tma\"";
  EXPECT_EQ(parseError(replaced(text, written, "\"store\": \"smem\"")),
            "manifest: field 'config.store' must be \"registers\" or \"tma\" "
            "(got \"smem\")");
  EXPECT_EQ(parseError(replaced(text, written, "\"store\": true")),
            "manifest: field 'config.store' must be \"registers\" or \"tma\" "
            "(got true)");
  EXPECT_EQ(parseError(replaced(text, written, "\"store\": \"TMA\"")),
            "manifest: field 'config.store' must be \"registers\" or \"tma\" "
            "(got \"TMA\")");
}

TEST(ManifestTest, TmaStoreConfigShortForm) {
  // "/ts" after "/p", as the compiler's short form has it.
  ConfigInfo config = makeTmaStoreManifest().config;
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8/c2x1/ts/o1");
  config.persistent = true;
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8/c2x1/p/ts/o1");
  config.store = StoreKind::Registers;
  EXPECT_EQ(formatConfigShort(config),
            "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8/c2x1/p/o1");
}

TEST(ManifestTest, TmaStoreMapsValidate) {
  std::string error;
  // bf16 C in 64x64 boxes; persistent too.
  KernelManifest m = makeTmaStoreManifest();
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.config.persistent = true;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // f32 C in 64x32 boxes: 128 bytes a box row.
  m = makeTmaStoreManifest();
  m.params[2].elementType = ElementType::F32;
  m.tensorMaps[2].box = {64, 32};
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // The map need not be last (the kernel takes the maps in their order).
  std::swap(m.tensorMaps[1], m.tensorMaps[2]);
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // A strided C (a subview) with its first element on 16 bytes.
  m = makeTmaStoreManifest();
  m.params[2].rowStride = 4104;
  m.params[2].offset = 8;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // Batched: C's map is batched like A's and B's, its matrices apart by a
  // multiple of 16 bytes.
  m = makeBatchedWgmmaManifest();
  m.config.store = StoreKind::Tma;
  m.tensorMaps.push_back({"C", {64, 64}, TensorMapSwizzle::B128,
                          TensorMapL2Promotion::None, 0, true});
  EXPECT_TRUE(validateManifest(m, error)) << error;
  m.params[2].batchStride += 8;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  // A linalg.batch_matmul of one: 3-d maps over a batch of one.
  m = makeTmaStoreManifest();
  for (TensorMapInfo &map : m.tensorMaps)
    map.batched = true;
  EXPECT_TRUE(validateManifest(m, error)) << error;
  KernelManifest parsed;
  ASSERT_TRUE(parseManifestJson(writeManifestJson(m), parsed, error)) << error;
  EXPECT_EQ(parsed, m);
  // With a fused epilogue (the staged values are the epilogue's).
  m = makeTmaStoreManifest();
  m.params.push_back({"E0", ParamRole::Epilogue, ElementType::F32, 1, 4096,
                      4096, 1, 16, ParamAccess::Read});
  m.epilogue.operands = {{"E0", EpilogueOperandKind::Col}};
  m.epilogue.steps = {"addf acc p0"};
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

TEST(ManifestTest, TmaStoreNeedsItsConfig) {
  const KernelManifest base = makeTmaStoreManifest();
  KernelManifest m = base;
  m.config.strategy = KernelStrategy::Fma;
  EXPECT_EQ(validationError(m),
            "manifest: config.store \"tma\" needs strategy \"wgmma\" (got "
            "\"fma\"): only the wgmma kernels stage C for a TMA store");
  m = base;
  m.config.copy = CopyKind::Registers;
  EXPECT_EQ(validationError(m), "manifest: config.store \"tma\" needs copy "
                                "\"tma\" (got \"registers\")");
  m.config.copy = CopyKind::CpAsync;
  EXPECT_EQ(validationError(m), "manifest: config.store \"tma\" needs copy "
                                "\"tma\" (got \"cp_async\")");
  m = base;
  m.config.specialize = false;
  EXPECT_EQ(validationError(m),
            "manifest: config.store \"tma\" needs specialize true (the "
            "consumer warpgroups stage C while the producer's TMA ring runs)");
  m = base;
  m.problem.cInit = CInit::Accumulate;
  m.params[2].access = ParamAccess::ReadWrite;
  m.config.splitK = 2;
  EXPECT_EQ(validationError(m),
            "manifest: config.store \"tma\" does not combine with split_k 2 "
            "(split-K adds into C atomically)");
  // Exactly one map of C.
  m = base;
  m.tensorMaps.pop_back();
  EXPECT_EQ(validationError(m),
            "manifest: config.store \"tma\" needs exactly one tensor map of "
            "the result param \"C\" (the manifest has 0)");
  m = base;
  m.tensorMaps.push_back(m.tensorMaps.back());
  EXPECT_EQ(validationError(m),
            "manifest: config.store \"tma\" needs exactly one tensor map of "
            "the result param \"C\" (the manifest has 2)");
  // A map of C without the TMA store: the kernel would not take it.
  m = base;
  m.config.store = StoreKind::Registers;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[2] views param \"C\" (result) but "
            "config.store is \"registers\": only a kernel that stores C "
            "through the TMA (store \"tma\") takes a tensor map of its "
            "result");
}

TEST(ManifestTest, TmaStoreMapsFollowTheTmaRules) {
  const KernelManifest base = makeTmaStoreManifest();
  // Never repacked: the TMA store writes C in place (even where the config
  // repacks A or B).
  KernelManifest m = base;
  m.config.repack = true;
  m.tensorMaps[2].repackRowStride = 4096;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[2] views param \"C\" (result) with "
            "repack_row_stride 4096; the TMA store writes C in place, a map "
            "of the result never repacks");
  // A 16-byte aligned base.
  m = base;
  m.params[2].alignment = 8;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[2] views param \"C\" (result) with "
            "alignment 8; the TMA store needs a 16-byte aligned base pointer: "
            "with store \"tma\" the result's alignment must be at least 16");
  // Rows a multiple of 16 bytes apart (no repack to fall back on).
  m = base;
  m.params[2].rowStride = 4100;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[2] views param \"C\" (result) whose rows "
            "are 8200 bytes apart (row_stride 4100); the TMA needs a multiple "
            "of 16 bytes below 2^40");
  // The first element on 16 bytes.
  m = base;
  m.params[2].rowStride = 4104;
  m.params[2].offset = 4; // 8 bytes
  m.params[2].alignment = 8;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[2] views param \"C\" (result) whose first "
            "element is at offset 4 (8 bytes); the TMA needs a multiple of 16 "
            "bytes");
  // Row- or column-major.
  m = base;
  m.params[2].rowStride = 8192;
  m.params[2].colStride = 2;
  EXPECT_EQ(validationError(m),
            "manifest: tensor_maps[2] views param \"C\" (result) with "
            "row_stride 8192 and col_stride 2; a tensor map needs row_stride "
            "or col_stride 1 (a row- or column-major matrix)");
  // The box: 1 to 256 elements, rows a multiple of 16 bytes within the
  // swizzle's span (an f32 C's 64 columns are 256 bytes).
  m = base;
  m.tensorMaps[2].box = {64, 0};
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[2] box 64x0 (rows x "
                                "cols) must be 1 to 256 elements in each "
                                "dimension");
  m = base;
  m.params[2].elementType = ElementType::F32;
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[2] box of 64 f32 "
                                "columns is 256 bytes wide, more than its "
                                "128B swizzle span");
  m.tensorMaps[2].box = {64, 6};
  m.tensorMaps[2].swizzle = TensorMapSwizzle::None;
  EXPECT_EQ(validationError(m), "manifest: tensor_maps[2] box of 6 f32 "
                                "columns is 24 bytes wide; the TMA needs a "
                                "multiple of 16 bytes");
  // Batched kernels: C's map batched, its matrices 16 bytes apart.
  KernelManifest batched = makeBatchedWgmmaManifest();
  batched.config.store = StoreKind::Tma;
  batched.tensorMaps.push_back(
      {"C", {64, 64}, TensorMapSwizzle::B128, TensorMapL2Promotion::None});
  EXPECT_EQ(validationError(batched),
            "manifest: tensor_maps[2] views param \"C\" (result) of a batched "
            "kernel (problem.batch 4) but is not batched: a batched kernel's "
            "tensor maps must be batched (a 2-d map over several matrices "
            "would let a box read the next matrix)");
  batched.tensorMaps[2].batched = true;
  batched.params[2].batchStride += 4; // 8 bytes
  batched.params[2].alignment = 8;
  EXPECT_EQ(validationError(batched),
            "manifest: tensor_maps[2] views param \"C\" (result) whose "
            "matrices are 33554440 bytes apart (batch_stride 16777220); the "
            "TMA needs a multiple of 16 bytes below 2^40");
}

TEST(ManifestTest, TmaStoreMapsTakeDynamicLayouts) {
  // C's dynamic offset and row stride: checked as for the densest layout
  // (16-byte steps), then with the launch's values, as A's and B's are.
  KernelManifest m = makeTmaStoreManifest();
  m.params[2].offset = kDynamic;
  m.params[2].rowStride = kDynamic;
  std::string error;
  ASSERT_TRUE(validateManifest(m, error)) << error;
  std::vector<ParamLayout> layouts;
  for (const ParamInfo &param : m.params)
    layouts.push_back(getParamLayout(param));
  layouts[2].offset = 8;       // 16 bytes
  layouts[2].rowStride = 4104; // 8208 bytes
  KernelManifest out;
  ASSERT_TRUE(resolveLayouts(m, layouts.data(), layouts.size(), out, error))
      << error;
  EXPECT_EQ(out.params[2].offset, 8);
  EXPECT_EQ(out.params[2].rowStride, 4104);
  EXPECT_EQ(getDynamicValues(m, out), (std::vector<int64_t>{8, 4104}));
  // Values off 16 bytes break C's alignment (which its map makes 16).
  layouts[2].rowStride = 4100;
  EXPECT_FALSE(resolveLayouts(m, layouts.data(), layouts.size(), out, error));
  EXPECT_EQ(error, "argument 2 (C): row_stride 4100 (8200 bytes) is not a "
                   "multiple of the 16 bytes the kernel assumes of its dynamic "
                   "offset and strides");
  // The map's rules apply to the launch's values: a batched C's matrices.
  KernelManifest b = makeBatchedWgmmaManifest();
  b.config.store = StoreKind::Tma;
  b.tensorMaps.push_back({"C", {64, 64}, TensorMapSwizzle::B128,
                          TensorMapL2Promotion::None, 0, true});
  b.params[2].batchStride = kDynamic;
  ASSERT_TRUE(validateManifest(b, error)) << error;
  layouts.clear();
  for (const ParamInfo &param : b.params)
    layouts.push_back(getParamLayout(param));
  layouts[2].batchStride = 4096 * 4096 + 8; // 16 bytes past one matrix
  ASSERT_TRUE(resolveLayouts(b, layouts.data(), layouts.size(), out, error))
      << error;
  EXPECT_EQ(out.params[2].batchStride, 4096 * 4096 + 8);
  layouts[2].batchStride = 4096 * 4096 - 8; // overlapping matrices
  EXPECT_FALSE(resolveLayouts(b, layouts.data(), layouts.size(), out, error));
  EXPECT_EQ(error, "with the launch's layouts, manifest: param \"C\" (result) "
                   "batches overlap: batch_stride 16777208 is below the "
                   "16777216 elements one matrix spans (row_stride 4096, "
                   "col_stride 1)");
}
