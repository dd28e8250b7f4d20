#include "clirun.h"
#include "design/design.h"
#include "design/examples.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

// `composelab render FILE --out OUT`: the canvas of a design as PNG, SVG or PDF, headless.
class TestRenderCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rendersEveryFormat();
    void pngFollowsDpi();
    void badInput();
    void writesExamples();

private:
    QTemporaryDir m_dir;
};

void TestRenderCli::rendersEveryFormat()
{
    const std::string design = test::examplePath("seed-testbed.clab");
    for (const char *ext : {"png", "svg", "pdf"}) {
        const QString out = m_dir.filePath(QStringLiteral("seed.%1").arg(QLatin1String(ext)));
        const test::Outcome r = test::run({"render", design, "--out", out.toStdString()});
        QCOMPARE(r.status, 0);
        QFile f(out);
        QVERIFY2(f.open(QIODevice::ReadOnly), ext);
        const QByteArray head = f.read(8);
        if (QLatin1String(ext) == QLatin1String("png"))
            QVERIFY(head.startsWith("\x89PNG"));
        else if (QLatin1String(ext) == QLatin1String("pdf"))
            QVERIFY(head.startsWith("%PDF"));
        else
            QVERIFY(f.readAll().contains("<svg"));
    }
}

void TestRenderCli::pngFollowsDpi()
{
    const std::string design = test::examplePath("dgx-a100-nvswitch.clab");
    const QString at96 = m_dir.filePath(QStringLiteral("96.png"));
    const QString at192 = m_dir.filePath(QStringLiteral("192.png"));
    QCOMPARE(test::run({"render", design, "--out", at96.toStdString(), "--dpi", "96"}).status, 0);
    QCOMPARE(test::run({"render", design, "--out", at192.toStdString(), "--dpi", "192"}).status, 0);
    const QImage a(at96), b(at192);
    QVERIFY(!a.isNull() && !b.isNull());
    // Twice the resolution, twice the pixels each way (to a pixel of rounding).
    QVERIFY(std::abs(b.width() - 2 * a.width()) <= 2);
    QVERIFY(std::abs(b.height() - 2 * a.height()) <= 2);
    // Not a blank page: the drawing has more than the background colour.
    QSet<QRgb> colours;
    for (int y = 0; y < a.height(); y += 7)
        for (int x = 0; x < a.width(); x += 7)
            colours.insert(a.pixel(x, y));
    QVERIFY(colours.size() > 10);
}

void TestRenderCli::badInput()
{
    const QString out = m_dir.filePath(QStringLiteral("x.png"));
    const std::string bad = std::string(CLAB_TEST_DATA) + "/bad_designs/unclosed_brace.clab";
    test::Outcome r = test::run({"render", bad, "--out", out.toStdString()});
    QCOMPARE(r.status, 1);
    QVERIFY(r.err.find("unclosed_brace.clab") != std::string::npos);
    r = test::run({"render", "/no/such/design.clab", "--out", out.toStdString()});
    QCOMPARE(r.status, 1);
    QVERIFY(r.err.find("/no/such/design.clab") != std::string::npos);
    QVERIFY(!QFile::exists(out));
    r = test::run({"render", test::examplePath("seed-testbed.clab"), "--out",
                   m_dir.filePath(QStringLiteral("x.gif")).toStdString()});
    QCOMPARE(r.status, 1);
    QVERIFY(r.err.find("png") != std::string::npos);
    QCOMPARE(test::run({"render", test::examplePath("seed-testbed.clab")}).status, 2);
}

void TestRenderCli::writesExamples()
{
    // `composelab example`: a bundled example to standard output, a synthetic pool to a file.
    test::Outcome r = test::run({"example", "seed-testbed"});
    QCOMPARE(r.status, 0);
    QVERIFY(design::readDesign(r.out, "stdout") == design::seedTestbed());
    const QString pool = m_dir.filePath(QStringLiteral("pool.clab"));
    QCOMPARE(test::run({"example", "pool:100", "--out", pool.toStdString()}).status, 0);
    const design::Design d = design::loadDesign(pool.toStdString());
    QVERIFY(d == design::generatePool(100));
    QVERIFY(d.devices.size() >= 90 && d.devices.size() <= 110);
    for (const char *bad : {"pool:0", "pool:x", "pool:100000", "no-such-example"}) {
        r = test::run({"example", bad});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.find(bad) != std::string::npos);
    }
}

QTEST_MAIN(TestRenderCli)
#include "tst_rendercli.moc"
