#include "partdialog.h"

#include "catalog/catalog.h"
#include "util/inputerror.h"
#include "views/common/qtext.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <cmath>

namespace clab::views {

namespace {

using Json = nlohmann::json;

std::string pointerOf(const std::vector<std::string> &path)
{
    std::string p;
    for (const std::string &key : path)
        p += "/" + key;
    return p;
}

bool isStringArray(const Json &v)
{
    if (!v.is_array())
        return false;
    for (const Json &e : v)
        if (!e.is_string())
            return false;
    return true;
}

QString shown(const Json &v)
{
    if (v.is_null())
        return {};
    if (v.is_string())
        return toQString(v.get<std::string>());
    if (v.is_number())
        return QString::number(v.get<double>(), 'g', 12);
    if (isStringArray(v)) {
        QStringList items;
        for (const Json &e : v)
            items << toQString(e.get<std::string>());
        return items.join(QStringLiteral(", "));
    }
    return toQString(v.dump());
}

// The value a field's text means, given what the field held before.
Json parsed(const QString &text, const Json &original)
{
    const QString t = text.trimmed();
    if (original.is_string())
        return text.toStdString();
    if (isStringArray(original)) {
        Json out = Json::array();
        for (const QString &item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
            out.push_back(item.trimmed().toStdString());
        return out;
    }
    if (t.isEmpty())
        return nullptr;
    bool ok = false;
    const double number = t.toDouble(&ok);
    if (ok && (original.is_number() || original.is_null())) {
        if (original.is_number_integer() && number == std::floor(number) && std::abs(number) < 1e15)
            return static_cast<long long>(number);
        return number;
    }
    // Anything else as JSON (an object for a field that was none, an array of arrays); what
    // does not parse stays text, for the catalog check to name.
    const Json json = Json::parse(t.toStdString(), nullptr, false);
    return json.is_discarded() ? Json(t.toStdString()) : json;
}

std::string freeId(const std::string &base)
{
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    std::string id = base;
    for (int n = 2; catalog.kindOf(id); ++n)
        id = base + "-" + std::to_string(n);
    return id;
}

} // namespace

PartDialog::PartDialog(const std::string &section, const std::string &entry, QWidget *parent)
    : QDialog(parent)
    , m_section(section)
    , m_start(Json::parse(entry))
    , m_problem(new QLabel)
{
    setWindowTitle(tr("New part from %1").arg(toQString(m_start.value("name", std::string()))));
    // A copy: its own id and name, none of the original's aliases (MLPerf names would match it),
    // and a source that says where it came from.
    const std::string from = m_start.value("id", std::string("part"));
    m_start["id"] = freeId(from + "-custom");
    m_start["name"] = m_start.value("name", from) + " (custom)";
    if (m_start.contains("aliases"))
        m_start["aliases"] = Json::array();
    m_start["source"]
        = "User-defined in ComposeLab from " + from + ": " + m_start.value("source", std::string());

    auto *inner = new QWidget;
    auto *form = new QFormLayout(inner);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    addFields(form, m_start, {}, 0);
    auto *scroll = new QScrollArea;
    scroll->setWidget(inner);
    scroll->setWidgetResizable(true);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b02020"));
    m_problem->setObjectName(QStringLiteral("problem"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add to My Parts"));
    connect(buttons, &QDialogButtonBox::accepted, this, &PartDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &PartDialog::reject);
    auto *layout = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("Every figure of the part, as the catalog keeps it (units in "
                               "resources/catalog/README.md). Leave a field empty for none. "
                               "Predictions on it are marked as extrapolation."));
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(scroll);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    resize(520, 640);
}

void PartDialog::addFields(QFormLayout *form, const Json &object, std::vector<std::string> path,
                           int depth)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        std::vector<std::string> here = path;
        here.push_back(it.key());
        if (it.value().is_object() && depth < 3) {
            auto *box = new QGroupBox(toQString(it.key()));
            auto *sub = new QFormLayout(box);
            addFields(sub, it.value(), here, depth + 1);
            form->addRow(box);
            continue;
        }
        QWidget *editor = nullptr;
        if (it.value().is_boolean()) {
            auto *check = new QCheckBox;
            check->setChecked(it.value().get<bool>());
            editor = check;
        } else {
            auto *line = new QLineEdit(shown(it.value()));
            if (it.value().is_null())
                line->setPlaceholderText(tr("none"));
            line->setCursorPosition(0);
            editor = line;
        }
        editor->setObjectName(toQString(pointerOf(here)));
        form->addRow(toQString(it.key()), editor);
        m_leaves.push_back({here, it.value(), editor});
    }
}

QWidget *PartDialog::field(const QString &pointer) const
{
    for (const Leaf &l : m_leaves)
        if (toQString(pointerOf(l.path)) == pointer)
            return l.editor;
    return nullptr;
}

QString PartDialog::problem() const
{
    return m_problem->text();
}

std::string PartDialog::entry() const
{
    Json out = m_start;
    for (const Leaf &l : m_leaves) {
        Json *at = &out;
        for (std::size_t i = 0; i + 1 < l.path.size(); ++i)
            at = &(*at)[l.path[i]];
        Json value;
        if (auto *check = qobject_cast<QCheckBox *>(l.editor))
            value = check->isChecked();
        else if (auto *line = qobject_cast<QLineEdit *>(l.editor))
            value = parsed(line->text(), l.original);
        (*at)[l.path.back()] = std::move(value);
    }
    return out.dump();
}

std::string PartDialog::file() const
{
    Json out;
    out[m_section] = Json::array({Json::parse(entry())});
    return out.dump(2) + "\n";
}

void PartDialog::accept()
{
    const std::string id = Json::parse(entry()).value("id", std::string());
    try {
        catalog::Catalog::checkUserParts(file(), id + ".json");
    } catch (const InputError &e) {
        m_problem->setText(tr("Not added: %1").arg(toQString(e.place() + ": " + e.message())));
        return;
    }
    m_problem->clear();
    QDialog::accept();
}

} // namespace clab::views
