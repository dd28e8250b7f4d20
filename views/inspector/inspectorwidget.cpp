#include "inspectorwidget.h"

#include "catalog/catalog.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace clab::views {

namespace {

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

QLabel *readOnly(const QString &value)
{
    auto *label = new QLabel(value);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

} // namespace

InspectorWidget::InspectorWidget(const catalog::Catalog &catalog, QWidget *parent)
    : QWidget(parent)
    , m_catalog(catalog)
    , m_form(new QFormLayout(this))
{
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

QWidget *InspectorWidget::editor(const QString &property) const
{
    return findChild<QWidget *>(property);
}

void InspectorWidget::clear()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
}

void InspectorWidget::showSelection(const design::Design &design,
                                    const std::vector<std::string> &ids,
                                    const std::vector<int> &links)
{
    clear();
    if (ids.size() == 1 && links.empty())
        showItem(design, ids.front());
    else if (ids.empty() && links.size() == 1)
        showLink(design, links.front());
    else if (ids.empty() && links.empty())
        showDesign(design);
    else
        m_form->addRow(readOnly(tr("%n item(s) selected. Delete removes them; Ctrl+G groups a "
                                   "host and devices into a composed system.",
                                   nullptr, int(ids.size() + links.size()))));
}

void InspectorWidget::showDesign(const design::Design &design)
{
    auto *name = new QLineEdit(text(design.name));
    name->setObjectName(QStringLiteral("designName"));
    auto *description = new QLineEdit(text(design.description));
    description->setObjectName(QStringLiteral("description"));
    description->setCursorPosition(0);
    auto commit
        = [this, name, description, oldName = design.name, oldDescription = design.description] {
              if (name->text().toStdString() != oldName
                  || description->text().toStdString() != oldDescription)
                  Q_EMIT designInfoRequested(name->text().toStdString(),
                                             description->text().toStdString());
          };
    connect(name, &QLineEdit::editingFinished, this, commit);
    connect(description, &QLineEdit::editingFinished, this, commit);
    m_form->addRow(tr("Design"), name);
    m_form->addRow(tr("Description"), description);
    m_form->addRow(readOnly(tr("%1 hosts, %2 chassis, %3 switches, %4 devices, %5 links, %6 "
                               "composed systems.")
                                .arg(design.hosts.size())
                                .arg(design.chassis.size())
                                .arg(design.switches.size())
                                .arg(design.devices.size())
                                .arg(design.links.size())
                                .arg(design.systems.size())));
    m_form->addRow(readOnly(tr("Drag parts from the palette onto the canvas; drag a device onto "
                               "a host to compose it; drag from a port (or Shift+drag from an "
                               "item) to another to link them.")));
}

void InspectorWidget::addNameEditor(const std::string &id, const std::string &name)
{
    auto *edit = new QLineEdit(text(name));
    edit->setObjectName(QStringLiteral("name"));
    edit->setPlaceholderText(text(id));
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, id, name] {
        if (edit->text().toStdString() != name)
            Q_EMIT renameRequested(id, edit->text().toStdString());
    });
    m_form->addRow(tr("Id"), readOnly(text(id)));
    m_form->addRow(tr("Name"), edit);
}

void InspectorWidget::addModelEditor(const std::string &id, const std::string &model)
{
    auto *combo = new QComboBox;
    combo->setObjectName(QStringLiteral("model"));
    const auto kind = m_catalog.kindOf(model);
    if (kind) {
        // Devices may change kind (a GPU for a drive) only by delete and add; a model edit keeps
        // the kind so that links and slots stay meaningful.
        for (const catalog::Entry *e : m_catalog.entries(*kind))
            combo->addItem(text(e->name), text(e->id));
    } else {
        combo->addItem(tr("%1 (not in the catalog)").arg(text(model)), text(model));
    }
    combo->setCurrentIndex(std::max(0, combo->findData(text(model))));
    connect(combo, &QComboBox::activated, this, [this, combo, id, model] {
        const std::string chosen = combo->currentData().toString().toStdString();
        if (chosen != model)
            Q_EMIT modelRequested(id, chosen);
    });
    m_form->addRow(tr("Model"), combo);
    if (const catalog::Entry *e = m_catalog.entry(model))
        m_form->addRow(tr("Source"), readOnly(text(e->source)));
}

void InspectorWidget::showItem(const design::Design &design, const std::string &id)
{
    if (const design::Device *d = design.device(id)) {
        showDevice(design, *d);
        return;
    }
    std::string name, model;
    QString what;
    if (const design::Host *h = design.host(id)) {
        name = h->name, model = h->model, what = tr("Host");
    } else if (const design::Chassis *c = design.findChassis(id)) {
        name = c->name, model = c->model, what = tr("PCIe chassis");
    } else if (const design::Switch *s = design.findSwitch(id)) {
        name = s->name, model = s->model, what = tr("Switch");
    } else {
        return;
    }
    m_form->addRow(readOnly(QStringLiteral("<b>%1</b>").arg(what)));
    addNameEditor(id, name);
    addModelEditor(id, model);
    for (const design::System &s : design.systems) {
        if (s.host != id)
            continue;
        auto *system = new QLineEdit(text(s.name));
        system->setObjectName(QStringLiteral("system"));
        connect(system, &QLineEdit::editingFinished, this, [this, system, old = s.name] {
            if (!system->text().isEmpty() && system->text().toStdString() != old)
                Q_EMIT systemRenameRequested(old, system->text().toStdString());
        });
        m_form->addRow(tr("Composed system"), system);
        m_form->addRow(tr("Devices"), readOnly(tr("%n device(s)", nullptr, int(s.devices.size()))));
    }
}

void InspectorWidget::showDevice(const design::Design &design, const design::Device &device)
{
    m_form->addRow(readOnly(QStringLiteral("<b>%1</b>").arg(tr("Device"))));
    addNameEditor(device.id, device.name);
    addModelEditor(device.id, device.model);

    auto *host = new QComboBox;
    host->setObjectName(QStringLiteral("host"));
    host->addItem(tr("(pool: not composed)"), QString());
    for (const design::Host &h : design.hosts)
        host->addItem(text(h.name.empty() ? h.id : h.name), text(h.id));
    std::string current;
    for (const design::System &s : design.systems)
        if (std::find(s.devices.begin(), s.devices.end(), device.id) != s.devices.end())
            current = s.host;
    host->setCurrentIndex(std::max(0, host->findData(text(current))));
    connect(host, &QComboBox::activated, this, [this, host, id = device.id, current] {
        const std::string chosen = host->currentData().toString().toStdString();
        if (chosen != current)
            Q_EMIT hostRequested(id, chosen);
    });
    m_form->addRow(tr("Composed to"), host);

    auto *chassis = new QComboBox;
    chassis->setObjectName(QStringLiteral("chassis"));
    chassis->addItem(tr("(none: linked directly)"), QString());
    for (const design::Chassis &c : design.chassis)
        chassis->addItem(text(c.name.empty() ? c.id : c.name), text(c.id));
    chassis->setCurrentIndex(std::max(0, chassis->findData(text(device.chassis))));
    auto *slot = new QSpinBox;
    slot->setObjectName(QStringLiteral("slot"));
    slot->setRange(-1, 1024);
    slot->setSpecialValueText(tr("none"));
    slot->setValue(device.slot);
    auto commit = [this, chassis, slot, device] {
        const std::string c = chassis->currentData().toString().toStdString();
        const int s = c.empty() ? -1 : std::max(0, slot->value());
        if (c != device.chassis || s != device.slot)
            Q_EMIT slotRequested(device.id, c, s);
    };
    connect(chassis, &QComboBox::activated, this, commit);
    connect(slot, &QSpinBox::editingFinished, this, commit);
    m_form->addRow(tr("Chassis"), chassis);
    m_form->addRow(tr("Slot"), slot);
}

void InspectorWidget::showLink(const design::Design &design, int index)
{
    if (index < 0 || index >= int(design.links.size()))
        return;
    const design::Link link = design.links[index];
    m_form->addRow(readOnly(QStringLiteral("<b>%1</b>").arg(tr("Link"))));
    m_form->addRow(tr("From"), readOnly(text(link.from)));
    m_form->addRow(tr("To"), readOnly(text(link.to)));
    auto *kind = new QComboBox;
    kind->setObjectName(QStringLiteral("kind"));
    const catalog::LinkKind *current = m_catalog.link(link.kind);
    for (const catalog::Entry *e : m_catalog.entries(catalog::Kind::Link)) {
        const catalog::LinkKind *l = m_catalog.link(e->id);
        if (l && (!current || l->family == current->family))
            kind->addItem(text(e->name), text(e->id));
    }
    if (!current)
        kind->addItem(tr("%1 (not in the catalog)").arg(text(link.kind)), text(link.kind));
    kind->setCurrentIndex(std::max(0, kind->findData(text(link.kind))));
    auto *count = new QSpinBox;
    count->setObjectName(QStringLiteral("count"));
    count->setRange(1, design::kMaxLinkCount);
    count->setValue(link.count);
    auto commit = [this, kind, count, link, index] {
        design::Link edited = link;
        edited.kind = kind->currentData().toString().toStdString();
        edited.count = count->value();
        if (!(edited == link))
            Q_EMIT linkEditRequested(index, edited);
    };
    connect(kind, &QComboBox::activated, this, commit);
    connect(count, &QSpinBox::editingFinished, this, commit);
    m_form->addRow(tr("Kind"), kind);
    m_form->addRow(tr("Count"), count);
    if (current)
        m_form->addRow(tr("Bandwidth"),
                       readOnly(tr("%1 GB/s per direction achieved (%2 raw)")
                                    .arg(current->achievedGBps(link.count), 0, 'f', 1)
                                    .arg(current->rawGBps * link.count, 0, 'f', 1)));
}

} // namespace clab::views
