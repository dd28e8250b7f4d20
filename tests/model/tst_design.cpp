#include "design/design.h"
#include "design/examples.h"
#include "util/inputerror.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <set>
#include <typeinfo>

using namespace clab;
using namespace clab::design;

namespace {

// One row per file in tests/data/bad_designs: what the error must say and where. A place that
// starts with "/" is a JSON pointer ("at /devices/0/slot"), "line N" a line of a syntax error;
// an empty place is not checked (see number_overflow.clab).
struct BadDesign
{
    const char *file;
    const char *fragment;
    const char *place;
};

const std::vector<BadDesign> &badDesigns()
{
    static const std::vector<BadDesign> rows = {
        // Not JSON, or not a JSON object.
        {"trailing_comma.clab", "not valid JSON", "line 4"},
        {"unclosed_brace.clab", "not valid JSON", "line 4"},
        {"empty.clab", "not valid JSON", "line 1"},
        {"binary_junk.clab", "not valid JSON", "line 1"},
        // Refused by the depth limit (model/util/limits.h) before the parser sees the syntax.
        {"deep_nesting_unclosed.clab", "nested more than 64 levels deep", "line 4"},
        {"top_level_array.clab", "expected an object, found an array", "/"},
        // Version keys.
        {"missing_format_version.clab", "missing required key \"formatVersion\"", "/"},
        {"format_version_string.clab", "expected an integer, found a string", "/formatVersion"},
        {"format_version_newer.clab", "format version 99 by a newer ComposeLab", "/formatVersion"},
        {"format_version_zero.clab", "expected an integer of at least 1, found 0",
         "/formatVersion"},
        {"missing_app_version.clab", "missing required key \"appVersion\"", "/"},
        // Items.
        {"hosts_not_array.clab", "expected an array, found an object", "/hosts"},
        {"host_not_object.clab", "expected an object, found a string", "/hosts/0"},
        {"host_without_id.clab", "missing required key \"id\"", "/hosts/0"},
        {"host_id_slash.clab", "an id may not contain '/'", "/hosts/0/id"},
        {"host_id_empty.clab", "expected a non-empty id", "/hosts/0/id"},
        {"model_number.clab", "expected a string, found a number", "/hosts/0/model"},
        {"unknown_top_level_key.clab", "unknown key \"hsots\"", "/hsots"},
        {"deep_nesting.clab", "nested more than 64 levels deep", "line 4"},
        // Devices and slots.
        {"device_key_typo.clab", "unknown key \"slott\"", "/devices/0/slott"},
        {"slot_without_chassis.clab", "a slot needs a \"chassis\"", "/devices/0/slot"},
        {"slot_negative.clab", "expected an integer of at least 0, found -1", "/devices/0/slot"},
        {"slot_float.clab", "expected an integer, found a number", "/devices/0/slot"},
        {"chassis_ref_slash.clab", "an id may not contain '/'", "/devices/0/chassis"},
        // Links.
        {"link_without_to.clab", "missing required key \"to\"", "/links/0"},
        {"link_from_empty.clab", "expected an endpoint", "/links/0/from"},
        {"link_count_zero.clab", "expected an integer of at least 1, found 0", "/links/0/count"},
        {"link_id_twice.clab", "the link id \"link1\" is already used by the link at /links/0",
         "/links/1/id"},
        {"link_id_empty.clab", "expected a non-empty id", "/links/0/id"},
        // Systems.
        {"system_without_name.clab", "missing required key \"name\"", "/systems/0"},
        {"system_devices_not_strings.clab", "expected a string, found a number",
         "/systems/0/devices/1"},
        {"system_devices_not_array.clab", "expected an array, found a string",
         "/systems/0/devices"},
        // Layout.
        {"layout_x_string.clab", "expected a number, found a string", "/layout/positions/gpu0/x"},
        {"layout_unknown_key.clab", "unknown key \"zoom\"", "/layout/zoom"},
        // 1e400 does not fit a double. nlohmann refuses it while parsing (it never yields inf),
        // so the message cannot come from the reader's finite-number check; it must still be an
        // InputError that names the file and the number.
        {"number_overflow.clab", "1e400", ""},
    };
    return rows;
}

QString badDir()
{
    return QStringLiteral(CLAB_TEST_DATA "/bad_designs");
}

QByteArray bytes(const std::string &s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

QByteArray readBytes(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace

class TestDesign : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // (a) malformed files
    void badDesign_data();
    void badDesign();
    void everyBadFileHasRow();
    void missingFile();
    // (b) round trip
    void exampleIsCanonical_data();
    void exampleIsCanonical();
    void saveLoadSave_data();
    void saveLoadSave();
    void versionOneIsUpgraded_data();
    void versionOneIsUpgraded();
    // (c) atomic save
    void saveReplacesExistingFile();
    void saveIntoMissingFolderThrows();
    // (d) generated pool
    void generatedPool();
    // (e) endpoints
    void splitEndpoint_data();
    void splitEndpoint();
};

void TestDesign::badDesign_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("fragment");
    QTest::addColumn<QString>("place");
    for (const BadDesign &b : badDesigns())
        QTest::newRow(b.file) << QString::fromUtf8(b.file) << QString::fromUtf8(b.fragment)
                              << QString::fromUtf8(b.place);
}

void TestDesign::badDesign()
{
    QFETCH(QString, file);
    QFETCH(QString, fragment);
    QFETCH(QString, place);
    const QString path = badDir() + QLatin1Char('/') + file;
    QVERIFY2(QFile::exists(path), qPrintable(path));
    QString what;
    try {
        loadDesign(path.toStdString());
        QFAIL("the file was accepted");
    } catch (const InputError &e) {
        what = QString::fromStdString(e.what());
    } catch (const std::exception &e) {
        QFAIL(
            qPrintable(QStringLiteral("expected clab::InputError, got %1: %2")
                           .arg(QString::fromUtf8(typeid(e).name()), QString::fromUtf8(e.what()))));
    }
    QString prefix = path + QStringLiteral(": ");
    if (place.startsWith(QLatin1Char('/')))
        prefix += QStringLiteral("at ") + place + QStringLiteral(": ");
    else if (!place.isEmpty())
        prefix += place + QStringLiteral(", column ");
    QVERIFY2(what.startsWith(prefix),
             qPrintable(QStringLiteral("expected to start with \"%1\":\n%2").arg(prefix, what)));
    QVERIFY2(what.contains(fragment),
             qPrintable(QStringLiteral("expected \"%1\" in:\n%2").arg(fragment, what)));
}

void TestDesign::everyBadFileHasRow()
{
    const QStringList files = QDir(badDir()).entryList(QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 20, qPrintable(QString::number(files.size())));
    std::set<QString> rows;
    for (const BadDesign &b : badDesigns())
        rows.insert(QString::fromUtf8(b.file));
    for (const QString &f : files) {
        QVERIFY2(f.endsWith(QLatin1String(".clab")), qPrintable(f));
        QVERIFY2(rows.count(f), qPrintable(f + QStringLiteral(" has no row in badDesigns()")));
    }
    for (const QString &r : rows)
        QVERIFY2(files.contains(r), qPrintable(r + QStringLiteral(" is not in bad_designs")));
}

void TestDesign::missingFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("nothing.clab")).toStdString();
    try {
        loadDesign(path);
        QFAIL("a missing file was accepted");
    } catch (const InputError &e) {
        QVERIFY2(QString::fromStdString(e.what()).startsWith(QString::fromStdString(path)),
                 e.what());
        QCOMPARE(e.file(), path);
    }
}

void TestDesign::exampleIsCanonical_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("text");
    const auto examples = bundledExamples();
    QVERIFY(examples.size() >= 4);
    for (const Example &e : examples)
        QTest::newRow(e.fileName.c_str())
            << QString::fromStdString(e.fileName)
            << QByteArray(e.text.data(), static_cast<qsizetype>(e.text.size()));
}

void TestDesign::exampleIsCanonical()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, text);
    const Design d = readDesign(std::string_view(text.constData(), std::size_t(text.size())),
                                name.toStdString());
    QCOMPARE(bytes(writeDesign(d)), text);
}

void TestDesign::saveLoadSave_data()
{
    exampleIsCanonical_data();
}

void TestDesign::saveLoadSave()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, text);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Design d = readDesign(std::string_view(text.constData(), std::size_t(text.size())),
                                name.toStdString());
    const QString first = dir.filePath(QStringLiteral("first.clab"));
    const QString second = dir.filePath(QStringLiteral("second.clab"));
    saveDesign(d, first.toStdString());
    const Design loaded = loadDesign(first.toStdString());
    saveDesign(loaded, second.toStdString());
    QVERIFY(loaded == d);
    const QByteArray a = readBytes(first);
    QVERIFY(!a.isEmpty());
    QCOMPARE(readBytes(second), a);
    QCOMPARE(a, text);
}

void TestDesign::versionOneIsUpgraded_data()
{
    exampleIsCanonical_data();
}

// Every bundled example as a version 1 file (its links without ids, as they were written before
// links had ids) reads as the version 2 file does: the links get link1, link2, ... in order, and
// writing it again gives the version 2 bytes (what `composelab upgrade` writes).
void TestDesign::versionOneIsUpgraded()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, text);
    nlohmann::json old = nlohmann::json::parse(text.constData());
    QCOMPARE(old.at("formatVersion").get<int>(), 2);
    old["formatVersion"] = 1;
    int n = 0;
    for (nlohmann::json &link : old["links"]) {
        QCOMPARE(link.at("id").get<std::string>(), "link" + std::to_string(++n));
        link.erase("id");
    }
    QVERIFY(n > 0);
    const Design upgraded = readDesign(old.dump(2), name.toStdString());
    const Design current = readDesign(std::string_view(text.constData(), std::size_t(text.size())),
                                      name.toStdString());
    QVERIFY(upgraded == current);
    QCOMPARE(bytes(writeDesign(upgraded)), text);
}

void TestDesign::saveReplacesExistingFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("design.clab"));
    {
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        // Longer than the new text, so a write without truncation would leave a tail behind.
        old.write(QByteArray(100000, 'x'));
    }
    const Design d = seedTestbed();
    saveDesign(d, path.toStdString());
    QCOMPARE(readBytes(path), bytes(writeDesign(d)));
    QVERIFY(loadDesign(path.toStdString()) == d);
    const QStringList left = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System);
    QCOMPARE(left, QStringList{QStringLiteral("design.clab")});
    // Saving again over the new file works the same way.
    saveDesign(d, path.toStdString());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System), left);
}

void TestDesign::saveIntoMissingFolderThrows()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("missing/design.clab"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, saveDesign(seedTestbed(), path.toStdString()));
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("missing"))));
    QVERIFY(QDir(dir.path())
                .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)
                .isEmpty());
}

void TestDesign::generatedPool()
{
    const Design d = generatePool(1000);
    QCOMPARE(d.devices.size(), std::size_t(1000));
    const std::string text = writeDesign(d);
    const Design back = readDesign(text, "pool.clab");
    QVERIFY(back == d);
    QCOMPARE(bytes(writeDesign(back)), bytes(text));
    // Ids are unique and every device is composed exactly once.
    std::set<std::string> ids;
    for (const Device &dev : d.devices)
        QVERIFY2(ids.insert(dev.id).second, dev.id.c_str());
    std::size_t composed = 0;
    for (const System &s : d.systems)
        composed += s.devices.size();
    QCOMPARE(composed, std::size_t(1000));
}

void TestDesign::splitEndpoint_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("item");
    QTest::addColumn<QString>("port");
    QTest::newRow("item only") << "gpu0"
                               << "gpu0"
                               << "";
    QTest::newRow("host socket") << "hostA/cpu1"
                                 << "hostA"
                                 << "cpu1";
    QTest::newRow("chassis port") << "pool/up3"
                                  << "pool"
                                  << "up3";
    QTest::newRow("second slash stays in the port") << "a/b/c"
                                                    << "a"
                                                    << "b/c";
    QTest::newRow("trailing slash") << "hostA/"
                                    << "hostA"
                                    << "";
    QTest::newRow("leading slash") << "/cpu0"
                                   << ""
                                   << "cpu0";
    QTest::newRow("empty") << ""
                           << ""
                           << "";
}

void TestDesign::splitEndpoint()
{
    QFETCH(QString, endpoint);
    QFETCH(QString, item);
    QFETCH(QString, port);
    const Endpoint e = clab::design::splitEndpoint(endpoint.toStdString());
    QCOMPARE(QString::fromStdString(e.item), item);
    QCOMPARE(QString::fromStdString(e.port), port);
}

QTEST_APPLESS_MAIN(TestDesign)
#include "tst_design.moc"
