// Names with quotes, SQL, control characters (NUL and ESC included) and non-ASCII text are data:
// a design keeps them through save, load and save again, byte for byte; the analysis gives them
// back; the store keeps them through import and query, executes none of them, and keeps working.
#include "catalog/catalog.h"
#include "design/design.h"
#include "design/examples.h"
#include "fabric/analysis.h"
#include "fabric/report.h"
#include "store/import.h"
#include "store/store.h"
#include "util/jsonreader.h"

#include <QtTest>

#include <fstream>

using namespace clab;

namespace {

const std::string kSql = "'; DROP TABLE runs; --";
const std::string kQuotes = "rack \"A\" o'brien \\ \"\"";
// NUL, ESC (a terminal escape), DEL, tab, newline, carriage return and a form feed.
const std::string kControl = std::string("ctl\0nul", 7) + "\x1b[31mred\x1b[0m\x7f\t\n\r\f";
const std::string kUnicode = "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x9A\x80 \xE2\x80\xAE"
                             "rtl"; // U+202E turns the text around when shown

std::string csvField(const std::string &s)
{
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

QByteArray bytes(const std::string &s)
{
    return QByteArray(s.data(), qsizetype(s.size()));
}

} // namespace

class TestHostileNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void designKeepsNamesVerbatim()
    {
        design::Design d = design::seedTestbed();
        d.name = kQuotes + kSql;
        d.description = kControl + kUnicode;
        d.hosts[0].name = kControl;
        d.devices[0].name = kSql + kUnicode;
        d.systems[0].name = kQuotes + kControl + kUnicode;
        // Ids may hold anything but '/', which separates an item from its port.
        const std::string oldId = d.devices[0].id;
        const std::string newId = kSql + " " + kUnicode + " " + kQuotes;
        d.devices[0].id = newId;
        for (auto &s : d.systems) {
            for (auto &id : s.devices)
                id = id == oldId ? newId : id;
        }
        for (auto &l : d.links) {
            l.from = l.from == oldId ? newId : l.from;
            l.to = l.to == oldId ? newId : l.to;
        }
        if (const auto it = d.layout.find(oldId); it != d.layout.end()) {
            d.layout[newId] = it->second;
            d.layout.erase(oldId);
        }
        QTemporaryDir dir;
        const std::string first = dir.filePath(QStringLiteral("first.clab")).toStdString();
        const std::string second = dir.filePath(QStringLiteral("second.clab")).toStdString();
        design::saveDesign(d, first);
        const design::Design loaded = design::loadDesign(first);
        QVERIFY(loaded == d);
        QCOMPARE(bytes(loaded.systems[0].name), bytes(kQuotes + kControl + kUnicode));
        QCOMPARE(bytes(loaded.devices[0].id), bytes(newId));
        design::saveDesign(loaded, second);
        QCOMPARE(bytes(design::writeDesign(design::loadDesign(second))),
                 bytes(design::writeDesign(d)));
        // The file itself is plain JSON text: control characters are escaped, not written raw.
        std::ifstream in(first, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        QVERIFY(text.find('\x1b') == std::string::npos);
        QVERIFY(text.find('\0') == std::string::npos);
        QVERIFY(text.find("\\u001b[31mred") != std::string::npos);

        // The analysis names the system as it is, and its JSON gives the same bytes back.
        const fabric::Analysis a = fabric::analyze(loaded, catalog::Catalog::builtin());
        const Json j = Json::parse(fabric::analysisToJson(a).dump());
        QCOMPARE(bytes(j["systems"][0]["name"].get<std::string>()),
                 bytes(kQuotes + kControl + kUnicode));
    }

    void storeKeepsNamesVerbatim()
    {
        QTemporaryDir dir;
        const std::string csv = dir.filePath(QStringLiteral("names.csv")).toStdString();
        const std::string system = kQuotes + kSql + kControl + kUnicode;
        {
            std::ofstream out(csv, std::ios::binary);
            out << "system,submitter,benchmark,value,notes,tags\n";
            out << csvField(system) << "," << csvField(kSql) << "," << csvField(kUnicode + kSql)
                << ",31.5," << csvField(kControl) << "," << csvField(kSql + ";" + kQuotes) << "\n";
            // The same system again, to be found by its name, not inserted twice.
            out << csvField(system) << "," << csvField(kSql) << ",resnet,20,,\n";
        }
        store::Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const store::ImportReport report = store::importPaths(s, {csv});
        QCOMPARE(report.imported.size(), std::size_t(1));
        const auto runs = s.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(bytes(runs[0].system), bytes(system));
        QCOMPARE(bytes(runs[0].run().benchmark), bytes(kUnicode + kSql));
        QCOMPARE(bytes(Json::parse(runs[0].run().details)["notes"].get<std::string>()),
                 bytes(kControl));
        const Json tags = Json::parse(runs[0].run().tags);
        // Split at ';' as documented: "'", " DROP TABLE runs", " --", then the quotes.
        QCOMPARE(tags.size(), std::size_t(4));
        QCOMPARE(bytes(tags[1].get<std::string>()), bytes(" DROP TABLE runs"));
        QCOMPARE(bytes(tags[3].get<std::string>()), bytes(kQuotes));
        QCOMPARE(runs[1].run().systemId, runs[0].run().systemId);
        QCOMPARE(s.systemNames().size(), std::size_t(1));
        // Looking a run up by a hostile benchmark name finds it, and nothing was executed: every
        // table is there and the store imports more.
        QCOMPARE(s.runs(kUnicode + kSql).size(), std::size_t(1));
        QCOMPARE(s.count(store::Table::Runs), 2);
        store::importPaths(s, {std::string(CLAB_TEST_DATA) + "/import/nccl_all_reduce.txt"});
        QCOMPARE(s.count(store::Table::Bandwidth), 26);
        QCOMPARE(s.count(store::Table::Sources), 2);
    }
};

QTEST_APPLESS_MAIN(TestHostileNames)
#include "tst_hostilenames.moc"
