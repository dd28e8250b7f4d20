#pragma once

// What the command tests share: the seed testbed and a comparison of designs that says where
// two differ.

#include "design/design.h"
#include "design/examples.h"

#include <QByteArray>
#include <QtTest>

#include <sstream>
#include <string>

namespace clab::testing {

using design::Design;

// The seed testbed (resources/examples/seed-testbed.clab): hosts hostA..hostD, the chassis "pool"
// with gpu0..gpu11 in slots 0..11, nvme0/nvme1 in 12/13, nic0/nic1 in 14/15; links
// hostX/cpu0 -> pool/up0..3; systems A (hostA: gpu0-3, nvme0), B (hostB: gpu4-9),
// C (hostC: gpu11, nvme1), D (hostD: gpu10, nic0); nic1 is in no system.
inline const Design &seed()
{
    static const Design d = design::seedTestbed();
    return d;
}

// The first line where the canonical texts differ, to say why two designs are not equal.
inline QByteArray firstDifference(const Design &a, const Design &b)
{
    std::istringstream ta(design::writeDesign(a));
    std::istringstream tb(design::writeDesign(b));
    std::string la;
    std::string lb;
    for (int line = 1;; ++line) {
        const bool moreA = bool(std::getline(ta, la));
        const bool moreB = bool(std::getline(tb, lb));
        if (!moreA && !moreB)
            break;
        if (la != lb || moreA != moreB)
            return QByteArray::fromStdString("line " + std::to_string(line) + ": " + la + " | "
                                             + lb);
    }
    return "same text, different values";
}

#define COMPARE_DESIGNS(a, b) QVERIFY2((a) == (b), firstDifference((a), (b)).constData())

} // namespace clab::testing
