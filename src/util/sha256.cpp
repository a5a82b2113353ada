#include "util/sha256.hpp"

#include "util/hex.hpp"

#include <openssl/evp.h>

#include <array>
#include <string>

namespace impact::util {

namespace {

std::string hex(const unsigned char* digest, unsigned int length) {
  return to_hex(std::string_view(reinterpret_cast<const char*>(digest), length));
}

} // namespace

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_sha256(), nullptr);
  return hex(digest.data(), length);
}

std::string git_blob_id(std::string_view data) {
  std::string header = "blob " + std::to_string(data.size());
  header.push_back('\0');
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha1(), nullptr);
  EVP_DigestUpdate(ctx, header.data(), header.size());
  EVP_DigestUpdate(ctx, data.data(), data.size());
  EVP_DigestFinal_ex(ctx, digest.data(), &length);
  EVP_MD_CTX_free(ctx);
  return hex(digest.data(), length);
}

} // namespace impact::util
