// The Plans dock: the ranking on a composed system of the seed testbed is the one `composelab
// plans DESIGN --system S` computes (same search, same fabric), its options change it, and a
// system without a GPU or without a network says so instead of ranking nothing.
#include "views/plans/plansview.h"

#include "catalog/catalog.h"
#include "design/examples.h"
#include "fabric/analysis.h"
#include "llm/shape.h"
#include "perf/platform.h"

#include <QCheckBox>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

using namespace clab;

class TestPlansView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("plans")); // a remembered model or attention
    }
    void ranksTheSystemsPlans();
    void saysWhyNot();
    void hiddenWaits();
};

void TestPlansView::ranksTheSystemsPlans()
{
    const design::Design design = design::seedTestbed();
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    const fabric::Analysis analysis = fabric::analyze(design, cat);
    views::PlansView view;
    view.show(); // a hidden panel waits until it is shown
    view.setDesign(design, analysis);
    view.setBenchmark(QStringLiteral("llama2-7b"));
    view.setGlobalBatch(48); // six replicas must divide it
    view.selectSystem(1);    // B: 6 GPUs over two switches

    // The same search over the same platform, outside the view.
    const perf::Platform platform = perf::platformOf(design, analysis, 1, cat);
    const llm::Search expected = llm::searchPlans(
        llm::parseShape("llama2-7b"), llm::hardwareOf(platform, 1), 48, llm::Attention::Unfused);
    QVERIFY(!expected.plans.empty());
    QCOMPARE(view.table()->rowCount(), int(std::min<std::size_t>(20, expected.plans.size())));
    QCOMPARE(view.table()->item(0, 0)->text().toStdString(),
             llm::describe(expected.plans.front().plan));
    QCOMPARE(view.shown().front().time.total, expected.plans.front().time.total);
    QVERIFY2(view.summary()->text().contains(QStringLiteral("6 × A100")),
             qPrintable(view.summary()->text()));

    // Fused attention: every plan says FA and the best step is shorter.
    QCheckBox *fused = view.findChild<QCheckBox *>();
    QVERIFY(fused);
    const bool wasFused = fused->isChecked();
    fused->setChecked(false);
    const double unfused = view.shown().front().time.total;
    fused->setChecked(true);
    QVERIFY(view.table()->item(0, 0)->text().endsWith(QStringLiteral(" FA")));
    QVERIFY(view.shown().front().time.total < unfused);
    fused->setChecked(wasFused);
}

void TestPlansView::saysWhyNot()
{
    const design::Design design = design::seedTestbed();
    const fabric::Analysis analysis = fabric::analyze(design, catalog::Catalog::builtin());
    views::PlansView view;
    view.show(); // a hidden panel waits until it is shown
    view.setDesign(design, analysis);
    view.setBenchmark(QStringLiteral("gpt3-175b"));
    view.setGlobalBatch(0);
    view.selectSystem(0);
    // GPT-3 on four 40 GB GPUs: nothing fits, and the summary says what to change.
    QCOMPARE(view.table()->rowCount(), 0);
    QVERIFY2(view.summary()->text().contains(QStringLiteral("No plan fits")),
             qPrintable(view.summary()->text()));
    // Llama 2's 1,024 sequences on six GPUs: no replica count divides it, and it says so.
    view.setBenchmark(QStringLiteral("llama2-7b"));
    view.selectSystem(1);
    QCOMPARE(view.table()->rowCount(), 0);
    QVERIFY2(view.summary()->text().contains(QStringLiteral("No plan meets the rules")),
             qPrintable(view.summary()->text()));
    // Copies of a system without a network path cannot be joined.
    int withoutNetwork = -1;
    for (std::size_t i = 0; i < analysis.systems.size(); ++i)
        if (!analysis.systems[i].gpus.empty()
            && perf::platformOf(design, analysis, i, catalog::Catalog::builtin()).networkGBps <= 0)
            withoutNetwork = int(i);
    if (withoutNetwork >= 0) {
        view.selectSystem(withoutNetwork);
        view.findChild<QSpinBox *>()->setValue(2); // the first spin box is Nodes
        QVERIFY2(view.summary()->text().contains(QStringLiteral("no network path")),
                 qPrintable(view.summary()->text()));
    }
    // A preset without a published batch asks for one.
    view.findChild<QSpinBox *>()->setValue(1);
    view.setBenchmark(QStringLiteral("llama3.1-8b"));
    QVERIFY2(view.summary()->text().contains(QStringLiteral("no published global batch")),
             qPrintable(view.summary()->text()));
}

void TestPlansView::hiddenWaits()
{
    // Every canvas edit hands the panel the design: while its dock is hidden it does not search,
    // and it ranks once shown.
    const design::Design design = design::seedTestbed();
    const fabric::Analysis analysis = fabric::analyze(design, catalog::Catalog::builtin());
    views::PlansView view;
    view.setDesign(design, analysis);
    view.setBenchmark(QStringLiteral("llama2-7b"));
    view.setGlobalBatch(64);
    QCOMPARE(view.table()->rowCount(), 0);
    QVERIFY(view.shown().empty());
    view.show();
    QVERIFY(view.table()->rowCount() > 0);
}

QTEST_MAIN(TestPlansView)
#include "tst_plansview.moc"
