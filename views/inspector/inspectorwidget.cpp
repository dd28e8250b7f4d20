#include "inspectorwidget.h"

#include "catalog/catalog.h"
#include "views/common/qtext.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>

namespace clab::views {

namespace {

// The program's catalog as it is now: user parts added since the view was made included.
const catalog::Catalog &catalogNow()
{
    return catalog::Catalog::builtin();
}

} // namespace

namespace {

InspectorRow textRow(const QString &label, const QString &value)
{
    InspectorRow r;
    r.label = label;
    r.text = value;
    return r;
}

InspectorRow heading(const QString &what)
{
    InspectorRow r;
    r.editor = InspectorRow::Editor::Heading;
    r.text = QStringLiteral("<b>%1</b>").arg(what.toHtmlEscaped());
    return r;
}

InspectorRow lineRow(const QString &label, const QString &name, const QString &value)
{
    InspectorRow r;
    r.label = label;
    r.name = name;
    r.editor = InspectorRow::Editor::Line;
    r.text = value;
    return r;
}

InspectorRow comboRow(const QString &label, const QString &name,
                      std::vector<std::pair<QString, QString>> choices, const QString &current)
{
    InspectorRow r;
    r.label = label;
    r.name = name;
    r.editor = InspectorRow::Editor::Combo;
    r.choices = std::move(choices);
    r.current = current;
    return r;
}

InspectorRow spinRow(const QString &label, const QString &name, int value, int minimum, int maximum)
{
    InspectorRow r;
    r.label = label;
    r.name = name;
    r.editor = InspectorRow::Editor::Spin;
    r.value = value;
    r.minimum = minimum;
    r.maximum = maximum;
    return r;
}

int indexOfData(const InspectorRow &row)
{
    for (std::size_t i = 0; i < row.choices.size(); ++i)
        if (row.choices[i].second == row.current)
            return int(i);
    return 0;
}

} // namespace

InspectorWidget::InspectorWidget(QWidget *parent)
    : QWidget(parent)
    , m_form(new QFormLayout(this))
{
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

QWidget *InspectorWidget::editor(const QString &property) const
{
    return findChild<QWidget *>(property);
}

QVariant InspectorWidget::value(const QString &name) const
{
    QWidget *w = editor(name);
    if (auto *line = qobject_cast<QLineEdit *>(w))
        return line->text();
    if (auto *combo = qobject_cast<QComboBox *>(w))
        return combo->currentData();
    if (auto *spin = qobject_cast<QSpinBox *>(w))
        return spin->value();
    return {};
}

void InspectorWidget::showSelection(const design::Design &design,
                                    const std::vector<std::string> &ids,
                                    const std::vector<std::string> &links)
{
    Rows rows;
    if (ids.size() == 1 && links.empty())
        rows = itemRows(design, ids.front());
    else if (ids.empty() && links.size() == 1)
        rows = linkRows(design, links.front());
    else if (ids.empty() && links.empty())
        rows = designRows(design);
    else
        rows.push_back(textRow({}, tr("%n item(s) selected. Delete removes them; Ctrl+G groups a "
                                      "host and devices into a composed system.",
                                      nullptr, int(ids.size() + links.size()))));
    show(std::move(rows));
}

void InspectorWidget::show(Rows rows)
{
    const bool sameShape = !m_pendingRebuild && rows.size() == m_rows.size()
                           && std::equal(rows.begin(), rows.end(), m_rows.begin(),
                                         [](const InspectorRow &a, const InspectorRow &b) {
                                             return a.sameShape(b);
                                         });
    if (sameShape) {
        updateInPlace(rows);
        m_rows = std::move(rows);
        return;
    }
    if (m_committing == 0) {
        m_pendingRebuild = false; // a rebuild now replaces the one that waits
        m_rows = std::move(rows);
        rebuild();
        return;
    }
    // An editor's signal is still running (a combo box's activated pushed a command whose
    // refresh arrived here): deleting that editor now would pull the floor out from under it.
    m_next = std::move(rows);
    if (m_pendingRebuild)
        return;
    m_pendingRebuild = true;
    QTimer::singleShot(0, this, [this] {
        if (!m_pendingRebuild)
            return;
        m_pendingRebuild = false;
        show(std::move(m_next));
    });
}

void InspectorWidget::rebuild()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_fields.clear();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        QWidget *field = createEditor(i);
        m_fields.push_back(field);
        if (m_rows[i].label.isEmpty())
            m_form->addRow(field);
        else
            m_form->addRow(m_rows[i].label, field);
    }
}

void InspectorWidget::updateInPlace(const Rows &rows)
{
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const InspectorRow &r = rows[i];
        QWidget *field = m_fields[i];
        const QSignalBlocker block(field);
        if (auto *label = qobject_cast<QLabel *>(field)) {
            if (label->text() != r.text)
                label->setText(r.text);
        } else if (auto *line = qobject_cast<QLineEdit *>(field)) {
            // Leave what the user is typing alone; the commit will bring the value back.
            if (line->text() != r.text && !(line->hasFocus() && line->isModified())) {
                line->setText(r.text);
                line->setCursorPosition(0);
            }
        } else if (auto *combo = qobject_cast<QComboBox *>(field)) {
            combo->setCurrentIndex(indexOfData(r));
        } else if (auto *spin = qobject_cast<QSpinBox *>(field)) {
            if (!(spin->hasFocus() && spin->value() != m_rows[i].value))
                spin->setValue(r.value);
        }
    }
}

QWidget *InspectorWidget::createEditor(std::size_t row)
{
    const InspectorRow &r = m_rows[row];
    switch (r.editor) {
    case InspectorRow::Editor::Text:
    case InspectorRow::Editor::Heading: {
        auto *label = new QLabel(r.text);
        label->setTextFormat(r.editor == InspectorRow::Editor::Heading ? Qt::RichText
                                                                       : Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setWordWrap(true);
        return label;
    }
    case InspectorRow::Editor::Line: {
        auto *line = new QLineEdit(r.text);
        line->setObjectName(r.name);
        line->setCursorPosition(0);
        connect(line, &QLineEdit::editingFinished, this, [this, line, row] {
            // Committed: from now on the document has the value, and an undo may change it
            // while the field keeps the focus.
            line->setModified(false);
            commitRow(row);
        });
        return line;
    }
    case InspectorRow::Editor::Combo: {
        auto *combo = new QComboBox;
        combo->setObjectName(r.name);
        for (const auto &[shown, key] : r.choices)
            combo->addItem(shown, key);
        combo->setCurrentIndex(indexOfData(r));
        connect(combo, &QComboBox::activated, this, [this, row] { commitRow(row); });
        return combo;
    }
    case InspectorRow::Editor::Spin: {
        auto *spin = new QSpinBox;
        spin->setObjectName(r.name);
        spin->setRange(r.minimum, r.maximum);
        spin->setSpecialValueText(r.specialValueText);
        spin->setValue(r.value);
        connect(spin, &QSpinBox::editingFinished, this, [this, row] { commitRow(row); });
        return spin;
    }
    }
    return nullptr;
}

void InspectorWidget::commitRow(std::size_t row)
{
    if (row >= m_rows.size() || !m_rows[row].commit)
        return;
    // The commit may come back as a refresh before it returns; `show` defers a rebuild until then.
    // Copy the function: a refresh replaces m_rows, and the closure with it.
    const std::function<void()> commit = m_rows[row].commit;
    ++m_committing;
    commit();
    --m_committing;
}

InspectorWidget::Rows InspectorWidget::designRows(const design::Design &design)
{
    Rows rows;
    rows.push_back(lineRow(tr("Design"), QStringLiteral("designName"), toQString(design.name)));
    rows.push_back(
        lineRow(tr("Description"), QStringLiteral("description"), toQString(design.description)));
    auto commit = [this, oldName = design.name, oldDescription = design.description] {
        const std::string name = value(QStringLiteral("designName")).toString().toStdString();
        const std::string description
            = value(QStringLiteral("description")).toString().toStdString();
        if (name != oldName || description != oldDescription)
            Q_EMIT designInfoRequested(name, description);
    };
    rows[0].commit = commit;
    rows[1].commit = commit;
    rows.push_back(textRow({}, tr("%1 hosts, %2 chassis, %3 switches, %4 devices, %5 links, %6 "
                                  "composed systems.")
                                   .arg(design.hosts.size())
                                   .arg(design.chassis.size())
                                   .arg(design.switches.size())
                                   .arg(design.devices.size())
                                   .arg(design.links.size())
                                   .arg(design.systems.size())));
    rows.push_back(textRow({}, tr("Drag parts from the palette onto the canvas; drag a device onto "
                                  "a host to compose it; drag from a port (or Shift+drag from an "
                                  "item) to another to link them.")));
    return rows;
}

void InspectorWidget::addNameRows(Rows &rows, const std::string &id, const std::string &name)
{
    rows.push_back(textRow(tr("Id"), toQString(id)));
    InspectorRow edit = lineRow(tr("Name"), QStringLiteral("name"), toQString(name));
    edit.commit = [this, id, name] {
        const std::string wanted = value(QStringLiteral("name")).toString().toStdString();
        if (wanted != name)
            Q_EMIT renameRequested(id, wanted);
    };
    rows.push_back(std::move(edit));
}

void InspectorWidget::addModelRows(Rows &rows, const std::string &id, const std::string &model)
{
    std::vector<std::pair<QString, QString>> choices;
    if (const auto kind = catalogNow().kindOf(model)) {
        // Devices may change kind (a GPU for a drive) only by delete and add; a model edit keeps
        // the kind so that links and slots stay meaningful.
        for (const catalog::Entry *e : catalogNow().entries(*kind))
            choices.emplace_back(toQString(e->name), toQString(e->id));
    } else {
        choices.emplace_back(tr("%1 (not in the catalog)").arg(toQString(model)), toQString(model));
    }
    InspectorRow combo
        = comboRow(tr("Model"), QStringLiteral("model"), std::move(choices), toQString(model));
    combo.commit = [this, id, model] {
        const std::string chosen = value(QStringLiteral("model")).toString().toStdString();
        if (chosen != model)
            Q_EMIT modelRequested(id, chosen);
    };
    rows.push_back(std::move(combo));
    if (const catalog::Entry *e = catalogNow().entry(model))
        rows.push_back(textRow(tr("Source"), toQString(e->source)));
}

InspectorWidget::Rows InspectorWidget::itemRows(const design::Design &design, const std::string &id)
{
    if (const design::Device *d = design.device(id))
        return deviceRows(design, *d);
    std::string name, model;
    QString what;
    if (const design::Host *h = design.host(id)) {
        name = h->name, model = h->model, what = tr("Host");
    } else if (const design::Chassis *c = design.findChassis(id)) {
        name = c->name, model = c->model, what = tr("PCIe chassis");
    } else if (const design::Switch *s = design.findSwitch(id)) {
        name = s->name, model = s->model, what = tr("Switch");
    } else {
        return {};
    }
    Rows rows;
    rows.push_back(heading(what));
    addNameRows(rows, id, name);
    addModelRows(rows, id, model);
    for (const design::System &s : design.systems) {
        if (s.host != id)
            continue;
        InspectorRow system
            = lineRow(tr("Composed system"), QStringLiteral("system"), toQString(s.name));
        const std::size_t row = rows.size();
        system.commit = [this, row, old = s.name] {
            auto *edit = qobject_cast<QLineEdit *>(row < m_fields.size() ? m_fields[row] : nullptr);
            const QString wanted = edit ? edit->text() : QString();
            if (!wanted.isEmpty() && wanted.toStdString() != old)
                Q_EMIT systemRenameRequested(old, wanted.toStdString());
        };
        rows.push_back(std::move(system));
        rows.push_back(textRow(tr("Devices"), tr("%n device(s)", nullptr, int(s.devices.size()))));
    }
    return rows;
}

InspectorWidget::Rows InspectorWidget::deviceRows(const design::Design &design,
                                                  const design::Device &device)
{
    Rows rows;
    rows.push_back(heading(tr("Device")));
    addNameRows(rows, device.id, device.name);
    addModelRows(rows, device.id, device.model);

    std::vector<std::pair<QString, QString>> hosts{{tr("(pool: not composed)"), QString()}};
    for (const design::Host &h : design.hosts)
        hosts.emplace_back(toQString(h.name.empty() ? h.id : h.name), toQString(h.id));
    std::string current;
    for (const design::System &s : design.systems)
        if (std::find(s.devices.begin(), s.devices.end(), device.id) != s.devices.end())
            current = s.host;
    InspectorRow host
        = comboRow(tr("Composed to"), QStringLiteral("host"), std::move(hosts), toQString(current));
    host.commit = [this, id = device.id, current] {
        const std::string chosen = value(QStringLiteral("host")).toString().toStdString();
        if (chosen != current)
            Q_EMIT hostRequested(id, chosen);
    };
    rows.push_back(std::move(host));

    std::vector<std::pair<QString, QString>> boxes{{tr("(none: linked directly)"), QString()}};
    for (const design::Chassis &c : design.chassis)
        boxes.emplace_back(toQString(c.name.empty() ? c.id : c.name), toQString(c.id));
    auto commitSlot = [this, id = device.id, chassis = device.chassis, slot = device.slot] {
        const std::string c = value(QStringLiteral("chassis")).toString().toStdString();
        const int s = c.empty() ? -1 : std::max(0, value(QStringLiteral("slot")).toInt());
        if (c != chassis || s != slot)
            Q_EMIT slotRequested(id, c, s);
    };
    InspectorRow chassis = comboRow(tr("Chassis"), QStringLiteral("chassis"), std::move(boxes),
                                    toQString(device.chassis));
    chassis.commit = commitSlot;
    rows.push_back(std::move(chassis));
    InspectorRow slot = spinRow(tr("Slot"), QStringLiteral("slot"), device.slot, -1, 1024);
    slot.specialValueText = tr("none");
    slot.commit = commitSlot;
    rows.push_back(std::move(slot));
    return rows;
}

InspectorWidget::Rows InspectorWidget::linkRows(const design::Design &design,
                                                const std::string &linkId)
{
    const design::Link *found = design.link(linkId);
    if (!found)
        return {};
    const design::Link link = *found;
    Rows rows;
    rows.push_back(heading(tr("Link")));
    rows.push_back(textRow(tr("From"), toQString(link.from)));
    rows.push_back(textRow(tr("To"), toQString(link.to)));
    std::vector<std::pair<QString, QString>> kinds;
    const catalog::LinkKind *current = catalogNow().link(link.kind);
    for (const catalog::Entry *e : catalogNow().entries(catalog::Kind::Link)) {
        const catalog::LinkKind *l = catalogNow().link(e->id);
        if (l && (!current || l->family == current->family))
            kinds.emplace_back(toQString(e->name), toQString(e->id));
    }
    if (!current)
        kinds.emplace_back(tr("%1 (not in the catalog)").arg(toQString(link.kind)),
                           toQString(link.kind));
    auto commit = [this, link] {
        design::Link edited = link;
        edited.kind = value(QStringLiteral("kind")).toString().toStdString();
        edited.count = value(QStringLiteral("count")).toInt();
        if (!(edited == link))
            Q_EMIT linkEditRequested(edited);
    };
    InspectorRow kind
        = comboRow(tr("Kind"), QStringLiteral("kind"), std::move(kinds), toQString(link.kind));
    kind.commit = commit;
    rows.push_back(std::move(kind));
    InspectorRow count
        = spinRow(tr("Count"), QStringLiteral("count"), link.count, 1, design::kMaxLinkCount);
    count.commit = commit;
    rows.push_back(std::move(count));
    if (current)
        rows.push_back(
            textRow(tr("Bandwidth"), tr("%1 GB/s per direction achieved (%2 raw)")
                                         .arg(current->achievedGBps(link.count), 0, 'f', 1)
                                         .arg(current->rawGBps * link.count, 0, 'f', 1)));
    return rows;
}

} // namespace clab::views
