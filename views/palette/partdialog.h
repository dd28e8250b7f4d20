#pragma once

#include <QDialog>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

class QFormLayout;
class QLabel;
class QWidget;

namespace clab::views {

// "Duplicate and Edit…": a form with every field of a catalog part (name, peaks, memory,
// links, measured rates, source...), built from the part's own JSON so that any kind of part can
// be edited. OK checks the result as the catalog reader checks a file and keeps the dialog open,
// naming the field, while anything is wrong.
class PartDialog : public QDialog
{
    Q_OBJECT

public:
    // `section`: the catalog section ("gpus"); `entry`: the part to start from (JSON text).
    PartDialog(const std::string &section, const std::string &entry, QWidget *parent = nullptr);

    // The edited part (JSON text), and the whole file it makes ({"gpus": [part]}).
    std::string entry() const;
    std::string file() const;
    // The editor of a field, by its JSON pointer ("/name", "/tflops/fp16"), for tests.
    QWidget *field(const QString &pointer) const;
    QString problem() const;

    void accept() override;

private:
    struct Leaf
    {
        std::vector<std::string> path;
        nlohmann::json original;
        QWidget *editor = nullptr;
    };
    void addFields(QFormLayout *form, const nlohmann::json &object, std::vector<std::string> path,
                   int depth);

    std::string m_section;
    nlohmann::json m_start;
    std::vector<Leaf> m_leaves;
    QLabel *m_problem;
};

} // namespace clab::views
