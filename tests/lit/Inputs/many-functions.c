#include <stdint.h>

uint32_t f0(uint32_t x);
static uint32_t f1(uint32_t x);
static uint32_t f2(uint32_t x);
uint32_t f3(uint32_t x);
static uint32_t f4(uint32_t x);
static uint32_t f5(uint32_t x);
uint32_t f6(uint32_t x);
static uint32_t f7(uint32_t x);
static uint32_t f8(uint32_t x);
uint32_t f9(uint32_t x);
static uint32_t f10(uint32_t x);
static uint32_t f11(uint32_t x);
uint32_t f12(uint32_t x);
static uint32_t f13(uint32_t x);
static uint32_t f14(uint32_t x);
uint32_t f15(uint32_t x);
static uint32_t f16(uint32_t x);
static uint32_t f17(uint32_t x);
uint32_t f18(uint32_t x);
static uint32_t f19(uint32_t x);
static uint32_t f20(uint32_t x);
uint32_t f21(uint32_t x);
static uint32_t f22(uint32_t x);
static uint32_t f23(uint32_t x);
uint32_t f24(uint32_t x);
static uint32_t f25(uint32_t x);
static uint32_t f26(uint32_t x);
uint32_t f27(uint32_t x);
static uint32_t f28(uint32_t x);
static uint32_t f29(uint32_t x);
uint32_t f30(uint32_t x);
static uint32_t f31(uint32_t x);
static uint32_t f32(uint32_t x);
uint32_t f33(uint32_t x);
static uint32_t f34(uint32_t x);
static uint32_t f35(uint32_t x);
uint32_t f36(uint32_t x);
static uint32_t f37(uint32_t x);
static uint32_t f38(uint32_t x);
uint32_t f39(uint32_t x);

uint32_t f0(uint32_t x) {
  uint32_t acc = x * 44u + 0u;
  acc = (acc << 4) ^ (acc >> 1) ^ 74u;
  if (acc & 256u) acc += 7u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 1) ^ 931u;
  if (acc & 256u) acc += 14u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 2) ^ 444u;
  if (acc & 64u) acc += 5u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 564u;
  if (acc & 64u) acc += 4u; else acc -= x;
  acc += f8(acc);
  acc += f15(acc);
  return acc;
}
static uint32_t f1(uint32_t x) {
  uint32_t acc = x * 83u + 1u;
  acc = (acc << 1) ^ (acc >> 7) ^ 50u;
  if (acc & 8u) acc += 3u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 3) ^ 296u;
  if (acc & 64u) acc += 10u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 2) ^ 584u;
  if (acc & 16u) acc += 36u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 3) ^ 105u;
  if (acc & 512u) acc += 37u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 4) ^ 381u;
  if (acc & 2u) acc += 36u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 2) ^ 577u;
  if (acc & 1u) acc += 40u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 8) ^ 696u;
  if (acc & 256u) acc += 28u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 8) ^ 599u;
  if (acc & 128u) acc += 24u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 4) ^ 813u;
  if (acc & 4u) acc += 45u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 588u;
  if (acc & 16u) acc += 34u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 6) ^ 746u;
  if (acc & 128u) acc += 19u; else acc -= x;
  acc += f6(acc);
  acc += f9(acc);
  return acc;
}
static uint32_t f2(uint32_t x) {
  uint32_t acc = x * 68u + 2u;
  acc = (acc << 2) ^ (acc >> 6) ^ 155u;
  if (acc & 128u) acc += 27u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 2) ^ 782u;
  if (acc & 256u) acc += 37u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 6) ^ 711u;
  if (acc & 32u) acc += 39u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 8) ^ 70u;
  if (acc & 2u) acc += 18u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 2) ^ 62u;
  if (acc & 2048u) acc += 45u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 8) ^ 291u;
  if (acc & 2048u) acc += 25u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 6) ^ 23u;
  if (acc & 128u) acc += 23u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 505u;
  if (acc & 1u) acc += 14u; else acc -= x;
  acc += f11(acc);
  return acc;
}
uint32_t f3(uint32_t x) {
  uint32_t acc = x * 97u + 3u;
  acc = (acc << 4) ^ (acc >> 7) ^ 938u;
  if (acc & 128u) acc += 6u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 8) ^ 411u;
  if (acc & 256u) acc += 18u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 7) ^ 884u;
  if (acc & 256u) acc += 18u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 7) ^ 367u;
  if (acc & 1024u) acc += 25u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 3) ^ 84u;
  if (acc & 4u) acc += 10u; else acc -= x;
  return acc;
}
static uint32_t f4(uint32_t x) {
  uint32_t acc = x * 87u + 4u;
  acc = (acc << 1) ^ (acc >> 8) ^ 851u;
  if (acc & 512u) acc += 12u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 5) ^ 4u;
  if (acc & 4u) acc += 27u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 6) ^ 624u;
  if (acc & 512u) acc += 21u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 1) ^ 467u;
  if (acc & 1024u) acc += 36u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 408u;
  if (acc & 64u) acc += 7u; else acc -= x;
  acc += f30(acc);
  return acc;
}
static uint32_t f5(uint32_t x) {
  uint32_t acc = x * 10u + 5u;
  acc = (acc << 1) ^ (acc >> 4) ^ 451u;
  if (acc & 4u) acc += 8u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 1) ^ 104u;
  if (acc & 1u) acc += 37u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 971u;
  if (acc & 32u) acc += 40u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 2) ^ 895u;
  if (acc & 8u) acc += 40u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 649u;
  if (acc & 16u) acc += 23u; else acc -= x;
  acc += f29(acc);
  acc += f36(acc);
  return acc;
}
uint32_t f6(uint32_t x) {
  uint32_t acc = x * 18u + 6u;
  acc = (acc << 4) ^ (acc >> 8) ^ 491u;
  if (acc & 128u) acc += 20u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 3) ^ 104u;
  if (acc & 2048u) acc += 22u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 5) ^ 490u;
  if (acc & 2048u) acc += 11u; else acc -= x;
  acc += f8(acc);
  acc += f20(acc);
  return acc;
}
static uint32_t f7(uint32_t x) {
  uint32_t acc = x * 70u + 7u;
  acc = (acc << 2) ^ (acc >> 1) ^ 776u;
  if (acc & 256u) acc += 20u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 2) ^ 712u;
  if (acc & 16u) acc += 34u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 3) ^ 364u;
  if (acc & 8u) acc += 35u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 6) ^ 651u;
  if (acc & 8u) acc += 40u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 4) ^ 837u;
  if (acc & 64u) acc += 48u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 4) ^ 530u;
  if (acc & 128u) acc += 23u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 1) ^ 28u;
  if (acc & 16u) acc += 31u; else acc -= x;
  acc += f20(acc);
  return acc;
}
static uint32_t f8(uint32_t x) {
  uint32_t acc = x * 91u + 8u;
  acc = (acc << 3) ^ (acc >> 8) ^ 827u;
  if (acc & 2048u) acc += 23u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 2) ^ 225u;
  if (acc & 2u) acc += 15u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 4) ^ 345u;
  if (acc & 8u) acc += 31u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 1) ^ 490u;
  if (acc & 1024u) acc += 23u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 2) ^ 854u;
  if (acc & 1024u) acc += 8u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 4) ^ 489u;
  if (acc & 4u) acc += 28u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 6) ^ 88u;
  if (acc & 2048u) acc += 26u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 761u;
  if (acc & 2u) acc += 47u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 3) ^ 130u;
  if (acc & 1u) acc += 10u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 825u;
  if (acc & 1024u) acc += 10u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 673u;
  if (acc & 32u) acc += 10u; else acc -= x;
  acc += f26(acc);
  acc += f13(acc);
  return acc;
}
uint32_t f9(uint32_t x) {
  uint32_t acc = x * 5u + 9u;
  acc = (acc << 6) ^ (acc >> 2) ^ 539u;
  if (acc & 2048u) acc += 9u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 4) ^ 845u;
  if (acc & 8u) acc += 2u; else acc -= x;
  acc += f16(acc);
  return acc;
}
static uint32_t f10(uint32_t x) {
  uint32_t acc = x * 40u + 10u;
  acc = (acc << 2) ^ (acc >> 6) ^ 265u;
  if (acc & 256u) acc += 27u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 1) ^ 931u;
  if (acc & 2048u) acc += 23u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 846u;
  if (acc & 256u) acc += 9u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 3) ^ 536u;
  if (acc & 256u) acc += 2u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 623u;
  if (acc & 1u) acc += 10u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 3) ^ 484u;
  if (acc & 512u) acc += 47u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 1) ^ 333u;
  if (acc & 1024u) acc += 34u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 803u;
  if (acc & 2u) acc += 36u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 4) ^ 195u;
  if (acc & 16u) acc += 3u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 8) ^ 575u;
  if (acc & 1u) acc += 49u; else acc -= x;
  return acc;
}
static uint32_t f11(uint32_t x) {
  uint32_t acc = x * 59u + 11u;
  acc = (acc << 5) ^ (acc >> 4) ^ 709u;
  if (acc & 16u) acc += 29u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 519u;
  if (acc & 8u) acc += 45u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 5) ^ 944u;
  if (acc & 256u) acc += 13u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 426u;
  if (acc & 2u) acc += 26u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 6) ^ 74u;
  if (acc & 1024u) acc += 16u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 2) ^ 217u;
  if (acc & 1024u) acc += 20u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 3) ^ 962u;
  if (acc & 2048u) acc += 42u; else acc -= x;
  acc += f23(acc);
  acc += f16(acc);
  return acc;
}
uint32_t f12(uint32_t x) {
  uint32_t acc = x * 35u + 12u;
  acc = (acc << 4) ^ (acc >> 4) ^ 764u;
  if (acc & 2u) acc += 26u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 683u;
  if (acc & 8u) acc += 11u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 7) ^ 527u;
  if (acc & 64u) acc += 22u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 4) ^ 365u;
  if (acc & 32u) acc += 6u; else acc -= x;
  acc += f24(acc);
  acc += f13(acc);
  return acc;
}
static uint32_t f13(uint32_t x) {
  uint32_t acc = x * 46u + 13u;
  acc = (acc << 4) ^ (acc >> 8) ^ 720u;
  if (acc & 1u) acc += 25u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 5) ^ 524u;
  if (acc & 2u) acc += 8u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 86u;
  if (acc & 16u) acc += 18u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 3) ^ 276u;
  if (acc & 4u) acc += 28u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 5) ^ 415u;
  if (acc & 4u) acc += 35u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 717u;
  if (acc & 32u) acc += 6u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 1) ^ 818u;
  if (acc & 2048u) acc += 12u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 2) ^ 275u;
  if (acc & 1u) acc += 41u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 5) ^ 85u;
  if (acc & 512u) acc += 15u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 5) ^ 883u;
  if (acc & 2u) acc += 30u; else acc -= x;
  return acc;
}
static uint32_t f14(uint32_t x) {
  uint32_t acc = x * 46u + 14u;
  acc = (acc << 4) ^ (acc >> 5) ^ 636u;
  if (acc & 4u) acc += 3u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 4) ^ 960u;
  if (acc & 2u) acc += 11u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 1) ^ 185u;
  if (acc & 8u) acc += 20u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 5) ^ 543u;
  if (acc & 8u) acc += 19u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 277u;
  if (acc & 32u) acc += 2u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 1) ^ 15u;
  if (acc & 1u) acc += 47u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 4) ^ 526u;
  if (acc & 128u) acc += 16u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 2) ^ 674u;
  if (acc & 1024u) acc += 28u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 8) ^ 559u;
  if (acc & 64u) acc += 33u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 4) ^ 235u;
  if (acc & 32u) acc += 13u; else acc -= x;
  acc += f38(acc);
  acc += f35(acc);
  return acc;
}
uint32_t f15(uint32_t x) {
  uint32_t acc = x * 20u + 15u;
  acc = (acc << 3) ^ (acc >> 1) ^ 857u;
  if (acc & 4u) acc += 1u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 5) ^ 441u;
  if (acc & 4u) acc += 4u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 7) ^ 891u;
  if (acc & 256u) acc += 43u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 4) ^ 709u;
  if (acc & 16u) acc += 3u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 161u;
  if (acc & 16u) acc += 29u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 5) ^ 372u;
  if (acc & 32u) acc += 36u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 4) ^ 35u;
  if (acc & 16u) acc += 14u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 3) ^ 1u;
  if (acc & 32u) acc += 25u; else acc -= x;
  return acc;
}
static uint32_t f16(uint32_t x) {
  uint32_t acc = x * 63u + 16u;
  acc = (acc << 5) ^ (acc >> 4) ^ 254u;
  if (acc & 256u) acc += 1u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 5) ^ 836u;
  if (acc & 2u) acc += 10u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 1) ^ 403u;
  if (acc & 1u) acc += 20u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 4) ^ 86u;
  if (acc & 512u) acc += 34u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 7) ^ 782u;
  if (acc & 32u) acc += 47u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 290u;
  if (acc & 2048u) acc += 40u; else acc -= x;
  acc += f21(acc);
  acc += f18(acc);
  return acc;
}
static uint32_t f17(uint32_t x) {
  uint32_t acc = x * 94u + 17u;
  acc = (acc << 6) ^ (acc >> 7) ^ 751u;
  if (acc & 2048u) acc += 33u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 1) ^ 846u;
  if (acc & 1024u) acc += 38u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 4) ^ 87u;
  if (acc & 1u) acc += 3u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 6) ^ 982u;
  if (acc & 2u) acc += 25u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 1) ^ 642u;
  if (acc & 1u) acc += 41u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 4) ^ 501u;
  if (acc & 16u) acc += 1u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 2) ^ 766u;
  if (acc & 256u) acc += 35u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 2) ^ 763u;
  if (acc & 2048u) acc += 31u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 2) ^ 866u;
  if (acc & 16u) acc += 16u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 4) ^ 236u;
  if (acc & 2048u) acc += 42u; else acc -= x;
  acc += f33(acc);
  return acc;
}
uint32_t f18(uint32_t x) {
  uint32_t acc = x * 51u + 18u;
  acc = (acc << 4) ^ (acc >> 5) ^ 785u;
  if (acc & 1u) acc += 40u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 4) ^ 79u;
  if (acc & 512u) acc += 10u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 5) ^ 667u;
  if (acc & 2048u) acc += 45u; else acc -= x;
  acc += f38(acc);
  return acc;
}
static uint32_t f19(uint32_t x) {
  uint32_t acc = x * 75u + 19u;
  acc = (acc << 1) ^ (acc >> 8) ^ 62u;
  if (acc & 128u) acc += 18u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 2) ^ 708u;
  if (acc & 8u) acc += 44u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 5) ^ 725u;
  if (acc & 256u) acc += 19u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 8) ^ 477u;
  if (acc & 2u) acc += 36u; else acc -= x;
  return acc;
}
static uint32_t f20(uint32_t x) {
  uint32_t acc = x * 42u + 20u;
  acc = (acc << 4) ^ (acc >> 1) ^ 296u;
  if (acc & 128u) acc += 5u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 275u;
  if (acc & 64u) acc += 14u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 595u;
  if (acc & 2u) acc += 10u; else acc -= x;
  acc += f37(acc);
  acc += f29(acc);
  return acc;
}
uint32_t f21(uint32_t x) {
  uint32_t acc = x * 49u + 21u;
  acc = (acc << 5) ^ (acc >> 5) ^ 908u;
  if (acc & 2u) acc += 46u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 4) ^ 509u;
  if (acc & 128u) acc += 26u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 3) ^ 3u;
  if (acc & 128u) acc += 44u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 309u;
  if (acc & 2048u) acc += 10u; else acc -= x;
  acc += f33(acc);
  return acc;
}
static uint32_t f22(uint32_t x) {
  uint32_t acc = x * 51u + 22u;
  acc = (acc << 1) ^ (acc >> 6) ^ 1u;
  if (acc & 32u) acc += 49u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 7) ^ 122u;
  if (acc & 8u) acc += 46u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 5) ^ 259u;
  if (acc & 32u) acc += 5u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 890u;
  if (acc & 512u) acc += 5u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 7) ^ 773u;
  if (acc & 16u) acc += 4u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 2) ^ 52u;
  if (acc & 1024u) acc += 19u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 3) ^ 255u;
  if (acc & 16u) acc += 28u; else acc -= x;
  acc += f33(acc);
  acc += f29(acc);
  return acc;
}
static uint32_t f23(uint32_t x) {
  uint32_t acc = x * 50u + 23u;
  acc = (acc << 1) ^ (acc >> 7) ^ 935u;
  if (acc & 256u) acc += 36u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 50u;
  if (acc & 2048u) acc += 27u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 659u;
  if (acc & 16u) acc += 32u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 3) ^ 174u;
  if (acc & 128u) acc += 27u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 5) ^ 304u;
  if (acc & 16u) acc += 48u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 5) ^ 415u;
  if (acc & 1024u) acc += 16u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 8) ^ 570u;
  if (acc & 1024u) acc += 26u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 3) ^ 658u;
  if (acc & 4u) acc += 5u; else acc -= x;
  return acc;
}
uint32_t f24(uint32_t x) {
  uint32_t acc = x * 67u + 24u;
  acc = (acc << 5) ^ (acc >> 4) ^ 463u;
  if (acc & 32u) acc += 49u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 142u;
  if (acc & 256u) acc += 13u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 178u;
  if (acc & 32u) acc += 36u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 6) ^ 244u;
  if (acc & 32u) acc += 17u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 4) ^ 908u;
  if (acc & 1u) acc += 48u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 423u;
  if (acc & 2048u) acc += 34u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 7) ^ 276u;
  if (acc & 32u) acc += 49u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 8) ^ 284u;
  if (acc & 512u) acc += 24u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 4) ^ 94u;
  if (acc & 16u) acc += 16u; else acc -= x;
  acc += f31(acc);
  return acc;
}
static uint32_t f25(uint32_t x) {
  uint32_t acc = x * 85u + 25u;
  acc = (acc << 4) ^ (acc >> 5) ^ 869u;
  if (acc & 1u) acc += 9u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 7) ^ 726u;
  if (acc & 128u) acc += 38u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 1) ^ 74u;
  if (acc & 64u) acc += 34u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 8) ^ 254u;
  if (acc & 2u) acc += 15u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 3) ^ 534u;
  if (acc & 1024u) acc += 7u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 8) ^ 87u;
  if (acc & 256u) acc += 3u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 3) ^ 238u;
  if (acc & 512u) acc += 3u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 5) ^ 985u;
  if (acc & 4u) acc += 41u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 7) ^ 715u;
  if (acc & 2u) acc += 7u; else acc -= x;
  return acc;
}
static uint32_t f26(uint32_t x) {
  uint32_t acc = x * 41u + 26u;
  acc = (acc << 5) ^ (acc >> 4) ^ 397u;
  if (acc & 16u) acc += 15u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 1) ^ 10u;
  if (acc & 256u) acc += 20u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 5) ^ 981u;
  if (acc & 32u) acc += 42u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 8) ^ 538u;
  if (acc & 8u) acc += 36u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 1) ^ 983u;
  if (acc & 64u) acc += 46u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 5) ^ 56u;
  if (acc & 1u) acc += 13u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 83u;
  if (acc & 16u) acc += 15u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 7) ^ 947u;
  if (acc & 32u) acc += 15u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 1) ^ 712u;
  if (acc & 32u) acc += 46u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 6) ^ 698u;
  if (acc & 64u) acc += 13u; else acc -= x;
  return acc;
}
uint32_t f27(uint32_t x) {
  uint32_t acc = x * 40u + 27u;
  acc = (acc << 1) ^ (acc >> 4) ^ 507u;
  if (acc & 8u) acc += 20u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 4) ^ 476u;
  if (acc & 8u) acc += 17u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 2) ^ 974u;
  if (acc & 512u) acc += 32u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 3) ^ 917u;
  if (acc & 8u) acc += 32u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 1) ^ 971u;
  if (acc & 512u) acc += 10u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 1) ^ 218u;
  if (acc & 1u) acc += 39u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 7) ^ 53u;
  if (acc & 2048u) acc += 4u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 7) ^ 460u;
  if (acc & 2048u) acc += 21u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 2) ^ 81u;
  if (acc & 4u) acc += 22u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 3) ^ 668u;
  if (acc & 256u) acc += 48u; else acc -= x;
  acc += f28(acc);
  return acc;
}
static uint32_t f28(uint32_t x) {
  uint32_t acc = x * 42u + 28u;
  acc = (acc << 3) ^ (acc >> 6) ^ 453u;
  if (acc & 4u) acc += 7u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 2) ^ 286u;
  if (acc & 2u) acc += 23u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 2) ^ 574u;
  if (acc & 8u) acc += 25u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 5) ^ 841u;
  if (acc & 64u) acc += 6u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 8) ^ 200u;
  if (acc & 32u) acc += 35u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 4) ^ 331u;
  if (acc & 32u) acc += 48u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 1) ^ 646u;
  if (acc & 64u) acc += 16u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 7) ^ 41u;
  if (acc & 64u) acc += 3u; else acc -= x;
  acc += f30(acc);
  return acc;
}
static uint32_t f29(uint32_t x) {
  uint32_t acc = x * 10u + 29u;
  acc = (acc << 2) ^ (acc >> 2) ^ 920u;
  if (acc & 512u) acc += 22u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 5) ^ 343u;
  if (acc & 512u) acc += 3u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 6) ^ 946u;
  if (acc & 16u) acc += 20u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 2) ^ 24u;
  if (acc & 8u) acc += 7u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 8) ^ 976u;
  if (acc & 64u) acc += 17u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 8) ^ 135u;
  if (acc & 128u) acc += 12u; else acc -= x;
  return acc;
}
uint32_t f30(uint32_t x) {
  uint32_t acc = x * 97u + 30u;
  acc = (acc << 6) ^ (acc >> 3) ^ 621u;
  if (acc & 8u) acc += 21u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 8) ^ 370u;
  if (acc & 512u) acc += 6u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 4) ^ 401u;
  if (acc & 4u) acc += 16u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 2) ^ 665u;
  if (acc & 1u) acc += 31u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 6) ^ 164u;
  if (acc & 64u) acc += 7u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 5) ^ 639u;
  if (acc & 2u) acc += 14u; else acc -= x;
  return acc;
}
static uint32_t f31(uint32_t x) {
  uint32_t acc = x * 56u + 31u;
  acc = (acc << 6) ^ (acc >> 8) ^ 177u;
  if (acc & 8u) acc += 9u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 8) ^ 635u;
  if (acc & 1024u) acc += 16u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 2) ^ 798u;
  if (acc & 16u) acc += 19u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 5) ^ 381u;
  if (acc & 16u) acc += 48u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 4) ^ 449u;
  if (acc & 8u) acc += 12u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 4) ^ 157u;
  if (acc & 16u) acc += 38u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 6) ^ 66u;
  if (acc & 64u) acc += 17u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 4) ^ 665u;
  if (acc & 2u) acc += 42u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 1) ^ 104u;
  if (acc & 1u) acc += 31u; else acc -= x;
  return acc;
}
static uint32_t f32(uint32_t x) {
  uint32_t acc = x * 60u + 32u;
  acc = (acc << 1) ^ (acc >> 5) ^ 238u;
  if (acc & 2u) acc += 4u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 4) ^ 952u;
  if (acc & 2u) acc += 24u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 3) ^ 459u;
  if (acc & 512u) acc += 17u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 1) ^ 108u;
  if (acc & 1024u) acc += 39u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 6) ^ 222u;
  if (acc & 1u) acc += 24u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 3) ^ 45u;
  if (acc & 8u) acc += 17u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 4) ^ 834u;
  if (acc & 1u) acc += 21u; else acc -= x;
  acc += f38(acc);
  return acc;
}
uint32_t f33(uint32_t x) {
  uint32_t acc = x * 50u + 33u;
  acc = (acc << 5) ^ (acc >> 5) ^ 79u;
  if (acc & 8u) acc += 3u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 8) ^ 64u;
  if (acc & 64u) acc += 7u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 654u;
  if (acc & 256u) acc += 6u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 3) ^ 407u;
  if (acc & 2048u) acc += 18u; else acc -= x;
  acc += f36(acc);
  return acc;
}
static uint32_t f34(uint32_t x) {
  uint32_t acc = x * 88u + 34u;
  acc = (acc << 4) ^ (acc >> 1) ^ 319u;
  if (acc & 2048u) acc += 37u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 7) ^ 426u;
  if (acc & 1u) acc += 24u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 4) ^ 400u;
  if (acc & 2048u) acc += 26u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 1) ^ 444u;
  if (acc & 4u) acc += 28u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 2) ^ 415u;
  if (acc & 512u) acc += 24u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 3) ^ 133u;
  if (acc & 1u) acc += 4u; else acc -= x;
  acc += f36(acc);
  acc += f38(acc);
  return acc;
}
static uint32_t f35(uint32_t x) {
  uint32_t acc = x * 14u + 35u;
  acc = (acc << 5) ^ (acc >> 6) ^ 754u;
  if (acc & 256u) acc += 11u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 6) ^ 290u;
  if (acc & 4u) acc += 34u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 2) ^ 111u;
  if (acc & 64u) acc += 32u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 5) ^ 129u;
  if (acc & 1u) acc += 31u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 1) ^ 622u;
  if (acc & 1024u) acc += 25u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 3) ^ 655u;
  if (acc & 8u) acc += 40u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 4) ^ 849u;
  if (acc & 128u) acc += 12u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 4) ^ 42u;
  if (acc & 64u) acc += 34u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 7) ^ 367u;
  if (acc & 2u) acc += 10u; else acc -= x;
  acc = (acc << 2) ^ (acc >> 4) ^ 42u;
  if (acc & 256u) acc += 49u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 1) ^ 683u;
  if (acc & 32u) acc += 8u; else acc -= x;
  acc += f39(acc);
  return acc;
}
uint32_t f36(uint32_t x) {
  uint32_t acc = x * 73u + 36u;
  acc = (acc << 6) ^ (acc >> 7) ^ 315u;
  if (acc & 512u) acc += 16u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 7) ^ 674u;
  if (acc & 32u) acc += 29u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 183u;
  if (acc & 1u) acc += 1u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 476u;
  if (acc & 8u) acc += 29u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 8) ^ 856u;
  if (acc & 4u) acc += 31u; else acc -= x;
  acc = (acc << 4) ^ (acc >> 2) ^ 68u;
  if (acc & 4u) acc += 23u; else acc -= x;
  acc += f38(acc);
  return acc;
}
static uint32_t f37(uint32_t x) {
  uint32_t acc = x * 14u + 37u;
  acc = (acc << 5) ^ (acc >> 1) ^ 41u;
  if (acc & 1024u) acc += 9u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 6) ^ 796u;
  if (acc & 2048u) acc += 33u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 1) ^ 770u;
  if (acc & 256u) acc += 25u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 3) ^ 26u;
  if (acc & 2u) acc += 40u; else acc -= x;
  acc = (acc << 6) ^ (acc >> 2) ^ 198u;
  if (acc & 4u) acc += 32u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 3) ^ 702u;
  if (acc & 2048u) acc += 15u; else acc -= x;
  acc = (acc << 1) ^ (acc >> 6) ^ 625u;
  if (acc & 16u) acc += 11u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 5) ^ 926u;
  if (acc & 128u) acc += 10u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 8) ^ 213u;
  if (acc & 512u) acc += 17u; else acc -= x;
  acc += f38(acc);
  acc += f39(acc);
  return acc;
}
static uint32_t f38(uint32_t x) {
  uint32_t acc = x * 50u + 38u;
  acc = (acc << 2) ^ (acc >> 3) ^ 413u;
  if (acc & 4u) acc += 41u; else acc -= x;
  acc = (acc << 3) ^ (acc >> 6) ^ 916u;
  if (acc & 64u) acc += 11u; else acc -= x;
  acc += f39(acc);
  return acc;
}
uint32_t f39(uint32_t x) {
  uint32_t acc = x * 70u + 39u;
  acc = (acc << 6) ^ (acc >> 6) ^ 989u;
  if (acc & 128u) acc += 36u; else acc -= x;
  acc = (acc << 5) ^ (acc >> 2) ^ 258u;
  if (acc & 256u) acc += 41u; else acc -= x;
  return acc;
}
uint32_t entry(uint32_t x) { uint32_t s = 0;
  s += f0(x + 0u);
  s += f3(x + 3u);
  s += f6(x + 6u);
  s += f9(x + 9u);
  s += f12(x + 12u);
  s += f15(x + 15u);
  s += f18(x + 18u);
  s += f21(x + 21u);
  s += f24(x + 24u);
  s += f27(x + 27u);
  s += f30(x + 30u);
  s += f33(x + 33u);
  s += f36(x + 36u);
  s += f39(x + 39u);
  return s; }
