// The format variants real machines print (../shared/reference/tool_outputs/README.md lists them):
// one fixture of our own per variant, each file its own transaction, and the published outputs
// checked against the values read from them by hand where ../shared exists.
#include "store/import.h"
#include "store/store.h"
#include "util/inputerror.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

using namespace clab;
using namespace clab::store;

namespace {

std::string variant(const char *name)
{
    return std::string(CLAB_TEST_DATA) + "/import_variants/" + name;
}

// The one imported entry of a single-file import.
OrderedJson importOne(Store &s, const std::string &path)
{
    const ImportReport report = importPaths(s, {path});
    if (report.imported.size() != 1)
        throw std::runtime_error(path + ": not imported");
    return report.imported.front();
}

std::size_t countWhere(const std::vector<BandwidthRecord> &all,
                       const std::function<bool(const BandwidthRecord &)> &keep)
{
    return std::size_t(std::count_if(all.begin(), all.end(), keep));
}

bool near(const std::optional<double> &value, double expected, double tolerance = 0.006)
{
    return value && std::abs(*value - expected) <= tolerance;
}

} // namespace

class TestImportVariants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Markdown ate every '#', the paste starts at the column names, NCCL INFO lines sit between
    // the rows, CRLF endings, no summary: still three sizes, out of place and in place.
    void ncclMarkdownPaste()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const OrderedJson entry = importOne(s, variant("nccl_markdown_paste.txt"));
        QCOMPARE(entry["measurements"].get<int>(), 6);
        QVERIFY(entry.contains("warning")); // no "Avg bus bandwidth": may be cut short
        const auto all = s.bandwidth("nccl-tests");
        QCOMPARE(countWhere(all,
                            [](const BandwidthRecord &b) {
                                return b.messageBytes == 16777216 && near(b.gbps, 146.29)
                                       && b.test.find("in-place") != std::string::npos;
                            }),
                 std::size_t(1));
    }

    // An old alltoall prints a redop header over blank cells and N/A for the in-place error.
    void ncclAlltoallBlankRedop()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        QCOMPARE(importOne(s, variant("nccl_alltoall_blank_redop.txt"))["measurements"].get<int>(),
                 6);
        const auto all = s.bandwidth("nccl-tests");
        const auto rows = countWhere(all, [](const BandwidthRecord &b) {
            return b.messageBytes == 4096 && near(b.gbps, 0.11) && near(b.latencyUs, 32.10);
        });
        QCOMPARE(rows, std::size_t(1)); // the out-of-place time, not shifted into the redop
    }

    // One GPU in place copies nothing: 13,981 GB/s is absurd but real. Stored, flagged, reported.
    void ncclOneGpuIsFlaggedNotRefused()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const OrderedJson entry = importOne(s, variant("nccl_one_gpu.txt"));
        QCOMPARE(entry["measurements"].get<int>(), 6);
        QCOMPARE(entry["implausible"].get<int>(), 3);
        const auto all = s.bandwidth("nccl-tests");
        const auto flagged = countWhere(all, [](const BandwidthRecord &b) {
            return b.details.find("implausible") != std::string::npos;
        });
        QCOMPARE(flagged, std::size_t(3));
        // The busbw stored is what the tool printed (0.00), the absurd algbw is in the details.
        QCOMPARE(countWhere(all,
                            [](const BandwidthRecord &b) {
                                return b.details.find("13981") != std::string::npos;
                            }),
                 std::size_t(1));
    }

    // bandwidthTest --mode=shmoo --csv: one line per size.
    void bandwidthTestShmooCsv()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        QCOMPARE(importOne(s, variant("bandwidth_test_shmoo_csv.txt"))["measurements"].get<int>(),
                 4);
        const auto all = s.bandwidth("bandwidthTest");
        QCOMPARE(countWhere(all,
                            [](const BandwidthRecord &b) {
                                return b.link == "d2h" && b.messageBytes == 8000
                                       && near(b.gbps, 7.2);
                            }),
                 std::size_t(1));
    }

    // nvbandwidth -j: matrix cells are strings, N/A is no measurement, a waived case is named.
    void nvbandwidthJson()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const OrderedJson entry = importOne(s, variant("nvbandwidth_json.json"));
        QCOMPARE(entry["measurements"].get<int>(), 4);
        QVERIFY2(entry["notes"].dump().find("Waived") != std::string::npos
                     && entry["notes"].dump().find("host_device_latency_sm") != std::string::npos,
                 entry.dump().c_str());
        const auto all = s.bandwidth("nvbandwidth");
        QCOMPARE(countWhere(all,
                            [](const BandwidthRecord &b) {
                                return b.link == "h2d" && near(b.gbps, 24.9015, 1e-6);
                            }),
                 std::size_t(1));
    }

    // The 2022 README layout: no header lines, a 0.00 diagonal that is not a measurement.
    void nvbandwidth2022Readme()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        QCOMPARE(importOne(s, variant("nvbandwidth_2022_readme.txt"))["measurements"].get<int>(),
                 4 + 12);
        const auto all = s.bandwidth("nvbandwidth");
        QCOMPARE(countWhere(all, [](const BandwidthRecord &b) { return near(b.gbps, 0.0); }),
                 std::size_t(0));
    }

    // Two test cases pasted from the middle of a run.
    void nvbandwidthPartialPaste()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        QCOMPARE(importOne(s, variant("nvbandwidth_partial_paste.txt"))["measurements"].get<int>(),
                 4);
        const auto all = s.bandwidth("nvbandwidth");
        QCOMPARE(countWhere(all,
                            [](const BandwidthRecord &b) {
                                return b.test == "device_to_device_memcpy_write_sm"
                                       && near(b.gbps, 50.02);
                            }),
                 std::size_t(1));
    }

    // A run whose test cases were waived is reported by name, not refused as empty.
    void nvbandwidthWaivedByName()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const OrderedJson entry = importOne(s, variant("nvbandwidth_waived.txt"));
        QCOMPARE(entry["measurements"].get<int>(), 1);
        const std::string notes = entry["notes"].dump();
        QVERIFY2(notes.find("device_to_device_memcpy_read_ce") != std::string::npos
                     && notes.find("device_to_device_memcpy_write_ce") != std::string::npos,
                 notes.c_str());
    }

    // Each file is its own transaction: the bad one is listed with its line, the rest land.
    // --all-or-nothing (RollBackAll) keeps the single transaction.
    void eachFileItsOwnTransaction()
    {
        namespace fs = std::filesystem;
        QTemporaryDir dir;
        const fs::path folder = dir.filePath(QStringLiteral("logs")).toStdString();
        fs::create_directory(folder);
        fs::copy_file(variant("nccl_alltoall_blank_redop.txt"), folder / "a.txt");
        fs::copy_file(variant("bandwidth_test_shmoo_csv.txt"), folder / "b.txt");
        fs::copy_file(std::string(CLAB_TEST_DATA) + "/import/nccl_garbled.txt", folder / "c.txt");

        Store all(dir.filePath(QStringLiteral("all.sqlite")).toStdString());
        ImportControl strict;
        strict.onBadFile = OnBadFile::RollBackAll;
        QVERIFY_THROWS_EXCEPTION(InputError, importPaths(all, {folder.string()}, strict));
        QCOMPARE(all.count(Table::Bandwidth), 0);

        Store each(dir.filePath(QStringLiteral("each.sqlite")).toStdString());
        ImportControl report;
        report.onBadFile = OnBadFile::ReportEach;
        const ImportReport r = importPaths(each, {folder.string()}, report);
        QCOMPARE(r.imported.size(), std::size_t(2));
        QCOMPARE(r.failed.size(), std::size_t(1));
        QVERIFY(r.failed[0].path.find("c.txt") != std::string::npos);
        QVERIFY2(r.failed[0].reason.find("line 24") != std::string::npos,
                 r.failed[0].reason.c_str());
        QCOMPARE(each.count(Table::Bandwidth), 6 + 4);
    }

    // Every published output of the shared folder imports, and the values read from it by hand
    // (index.csv, "expected") are among its records.
    void sharedOutputs()
    {
        namespace fs = std::filesystem;
        const fs::path root = fs::path(CLAB_SHARED_DIR) / "reference/tool_outputs";
        if (!fs::exists(root / "index.csv"))
            QSKIP("../shared/reference/tool_outputs is absent");
        std::ifstream index(root / "index.csv");
        std::string line;
        std::getline(index, line);
        int checked = 0, files = 0;
        const std::regex file(R"(^((nccl|p2p|bandwidthtest|nvbandwidth)/[^,]+),)");
        const std::regex busbw(R"(largest size (\d+) B out-of-place busbw=([\d.]+))");
        const std::regex hostCopy(R"((H2D|D2H)(@(\d+) B)?=([\d.]+) (GB/s|MB/s))");
        const std::regex peer(R"((uni|bidi) P2P=(Enabled|Disabled) GPU(\d)-?>?GPU(\d)=([\d.]+))");
        const std::regex nvbw(R"((GPU0|GPU1) ?= ?([\d.]+) GB/s)");
        while (std::getline(index, line)) {
            std::smatch m;
            if (!std::regex_search(line, m, file))
                continue;
            const std::string name = m[1];
            ++files;
            QTemporaryDir dir;
            Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
            ImportControl control;
            control.onBadFile = OnBadFile::ReportEach;
            const ImportReport r = importPaths(s, {(root / name).string()}, control);
            QVERIFY2(r.failed.empty() && r.imported.size() == 1,
                     qPrintable(QString::fromStdString(name + ": " + r.toJson().dump())));
            const auto all = s.bandwidth();
            const auto expect = [&](bool found, const std::string &what) {
                QVERIFY2(found, qPrintable(QString::fromStdString(name + ": " + what)));
                ++checked;
            };
            for (auto it = std::sregex_iterator(line.begin(), line.end(), busbw);
                 it != std::sregex_iterator(); ++it) {
                const long long bytes = std::stoll((*it)[1]);
                const double gbps = std::stod((*it)[2]);
                expect(countWhere(all,
                                  [&](const BandwidthRecord &b) {
                                      return b.messageBytes == bytes && near(b.gbps, gbps)
                                             && b.test.find("out-of-place") != std::string::npos;
                                  })
                           == 1,
                       "busbw " + std::to_string(gbps));
            }
            for (auto it = std::sregex_iterator(line.begin(), line.end(), hostCopy);
                 it != std::sregex_iterator(); ++it) {
                const std::string link = (*it)[1] == "H2D" ? "h2d" : "d2h";
                const double gbps = std::stod((*it)[4]) / ((*it)[5] == "MB/s" ? 1000.0 : 1.0);
                const long long bytes = (*it)[3].matched ? std::stoll((*it)[3]) : -1;
                expect(countWhere(all,
                                  [&](const BandwidthRecord &b) {
                                      return b.link == link && near(b.gbps, gbps, 0.0006)
                                             && (bytes < 0 || b.messageBytes == bytes);
                                  })
                           >= 1,
                       link + " " + std::to_string(gbps));
            }
            for (auto it = std::sregex_iterator(line.begin(), line.end(), peer);
                 it != std::sregex_iterator(); ++it) {
                const std::string kind = (*it)[1] == "uni" ? "Unidirectional" : "Bidirectional";
                const std::string p2p = "P2P=" + (*it)[2].str();
                const std::string a = "GPU" + (*it)[3].str(), b = "GPU" + (*it)[4].str();
                const double gbps = std::stod((*it)[5]);
                expect(countWhere(all,
                                  [&](const BandwidthRecord &rec) {
                                      return rec.test.find(kind) == 0
                                             && rec.test.find(p2p) != std::string::npos
                                             && ((rec.from == a && rec.to == b)
                                                 || (rec.from == b && rec.to == a))
                                             && near(rec.gbps, gbps);
                                  })
                           >= 1,
                       kind + " " + p2p + " " + std::to_string(gbps));
            }
            if (name.rfind("nvbandwidth/", 0) == 0) {
                for (auto it = std::sregex_iterator(line.begin(), line.end(), nvbw);
                     it != std::sregex_iterator(); ++it) {
                    const double gbps = std::stod((*it)[2]);
                    expect(countWhere(all,
                                      [&](const BandwidthRecord &rec) {
                                          return near(rec.gbps, gbps, 1e-4);
                                      })
                               >= 1,
                           "nvbandwidth " + std::to_string(gbps));
                }
            }
        }
        QVERIFY2(files >= 20, "index.csv lists the tool outputs");
        QVERIFY2(checked >= 40, qPrintable(QString::number(checked)));
    }
};

QTEST_APPLESS_MAIN(TestImportVariants)
#include "tst_importvariants.moc"
